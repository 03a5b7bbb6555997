import { z } from 'zod';
import { MAX_PAGE_SIZE } from '../../../shared/constants';
import { MEDIA_KEY_RE, NEWSROOM_ROLES, STORY_LIMITS, STORY_STATUSES, storyDocError } from '../../../shared/newsroom';

// The newsroom's input. Every story field has one rule here, the body's is the shared schema's
// (shared/newsroom.ts); a refused value is a 400 naming its field and nothing is saved.

const text = (max: number) => z.string({ message: 'Must be text.' }).max(max, `Ensure this field has no more than ${max} characters.`);
const mediaKey = z
  .string()
  .refine((k) => MEDIA_KEY_RE.test(k) && !k.includes('..'), 'Must be an uploaded image.')
  .nullable();

export const storyFieldsSchema = z
  .object({
    name: text(STORY_LIMITS.titleMax),
    slug: z.string().max(STORY_LIMITS.slugMax, `Ensure this field has no more than ${STORY_LIMITS.slugMax} characters.`).regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$|^$/, 'Use lower-case letters, digits and hyphens.'),
    excerpt: text(STORY_LIMITS.excerptMax),
    type_id: z.number({ message: 'Choose a type.' }).int().positive('Choose a type.'),
    doc: z.unknown().superRefine((doc, c) => {
      const e = storyDocError(doc);
      if (e) c.addIssue({ code: 'custom', message: e });
    }),
    image_key: mediaKey,
    image_alt: text(STORY_LIMITS.altMax),
    image_credit: text(STORY_LIMITS.creditMax),
    seo_title: text(STORY_LIMITS.seoTitleMax),
    // Longer than the 160 a search engine shows is refused at publishing (a check), not while typing.
    seo_description: text(400),
    canonical_url: z.string().max(1000).refine((u) => u === '' || /^https?:\/\/[^\s]+$/.test(u), 'Enter a full web address (https://…) or leave it empty.'),
    social_image_key: mediaKey,
    is_sponsored: z.boolean({ message: 'Must be true or false.' }),
    sponsor_name: text(255),
    author_name: text(100),
  })
  .strict()
  .partial();
export type StoryFieldsInput = z.output<typeof storyFieldsSchema>;

// The envelopes; their `fields` are read with storyFieldsSchema on their own, so a 400 names
// the story field ({"doc": [...]}) rather than "fields".
const fieldsObject = z.record(z.string(), z.unknown(), { message: 'Must be an object of story fields.' });
export const createStorySchema = z.object({ fields: fieldsObject.default({}) }).strict();

export const saveStorySchema = z
  .object({
    base_version: z.number({ message: 'The version the changes started from is required.' }).int().nonnegative(),
    fields: fieldsObject,
    explicit: z.boolean().optional(),
  })
  .strict();

export const publishSchema = z.object({ override_reason: z.string().trim().max(500).optional() }).strict();

/** 'YYYY-MM-DDTHH:mm', a minute in the city's time zone (what a datetime-local input sends). */
const localMinute = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, 'Enter a date and time (YYYY-MM-DDTHH:mm).');

export const scheduleSchema = z.object({ publish_at: localMinute, override_reason: z.string().trim().max(500).optional() }).strict();
export const unpublishSchema = z.object({ at: localMinute.optional() }).strict();

export const storyListQuerySchema = z.object({
  status: z.enum(STORY_STATUSES, { message: `Choose one of: ${STORY_STATUSES.join(', ')}.` }).optional(),
  type: z.coerce.number().int().positive().optional(),
  author: z.coerce.number().int().positive().optional(),
  q: z.string().trim().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(30),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});

export const typeaheadSchema = z.object({ q: z.string().trim().min(1, 'Type at least one letter.').max(100) });
export const cardTargetsSchema = typeaheadSchema.extend({ kind: z.enum(['place', 'event', 'bestOf'], { message: 'Choose place, event or bestOf.' }) });

export const roleFormSchema = z.object({
  email: z.string().trim().email('Enter an email address.').max(254),
  role: z.enum([...NEWSROOM_ROLES, 'none'], { message: 'Choose a role.' }),
});

export const fetchImageSchema = z.object({ url: z.string().trim().url('Enter a web address.').max(2000) }).strict();
