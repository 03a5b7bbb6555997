import { z } from 'zod';
import { ACCESSIBILITY_ANSWERS, ACCESSIBILITY_KEYS, ACCESSIBILITY_NOTE_MAX, accessibilityKeysOf, isAccessibilityAttribute, type AccessibilityAttribute } from '../../../shared/accessibility';

// Input at the edges: a member's report (API JSON and the no-JS form alike) and the search
// filter's list of attributes. Unknown attributes and answers are a 400 naming the field.

export const attributeField = z.enum(ACCESSIBILITY_KEYS as [AccessibilityAttribute, ...AccessibilityAttribute[]], {
  message: `Select a valid choice: ${ACCESSIBILITY_KEYS.join(', ')}.`,
});

export const answerField = z.enum(ACCESSIBILITY_ANSWERS, { message: `Select a valid choice: ${ACCESSIBILITY_ANSWERS.join(', ')}.` });

export const reportSchema = z.object({
  attribute: attributeField,
  answer: answerField,
  // A form sends '' for an empty note; a JSON client may leave it out or send null.
  note: z.preprocess(
    (v) => (v === undefined || v === null ? '' : v),
    z.string({ message: 'Not a valid string.' }).trim().max(ACCESSIBILITY_NOTE_MAX, `Ensure this field has no more than ${ACCESSIBILITY_NOTE_MAX} characters.`),
  ),
});

export type ReportInput = z.infer<typeof reportSchema>;

/** The search filter: a comma list (or repeated values) of attribute keys, every one known. */
export const accessibilityFilterField = z.unknown().transform((v, ctx): AccessibilityAttribute[] => {
  if (v !== undefined && v !== null && typeof v !== 'string' && !(Array.isArray(v) && v.every((x) => typeof x === 'string'))) {
    ctx.addIssue({ code: 'custom', message: 'Enter a comma-separated list of accessibility attributes.' });
    return z.NEVER;
  }
  const keys = accessibilityKeysOf(v);
  const unknown = keys.filter((k) => !isAccessibilityAttribute(k));
  if (unknown.length) {
    ctx.addIssue({ code: 'custom', message: `Unknown accessibility attribute: ${unknown.slice(0, 3).join(', ').slice(0, 120)}. Choose from: ${ACCESSIBILITY_KEYS.join(', ')}.` });
    return z.NEVER;
  }
  return keys as AccessibilityAttribute[];
});
