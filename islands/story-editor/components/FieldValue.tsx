import { imageUrl } from '../../../shared/format/image-url';
import type { StoryDoc, StoryField } from '../../../shared/newsroom';
import { docPlainText } from '../doc-text';

/** One field's value as text for the conflict and revision views. */
export function FieldValue({ field, value }: { field: StoryField; value: unknown }) {
  if (field === 'doc') return <div className="story-doc-text">{docPlainText(value as StoryDoc).split('\n').map((l, i) => <p key={i}>{l}</p>)}</div>;
  if ((field === 'image_key' || field === 'social_image_key') && typeof value === 'string' && value) return <img src={imageUrl(value, 'articleCard')} alt="" width={180} height={120} />;
  if (typeof value === 'boolean') return <>{value ? 'Yes' : 'No'}</>;
  if (value === null || value === undefined || value === '') return <span className="muted">(empty)</span>;
  return <>{String(value)}</>;
}
