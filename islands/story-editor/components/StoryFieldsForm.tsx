import { useId, useState, type ReactNode } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import { imageUrl } from '../../../shared/format/image-url';
import { STORY_LIMITS, type StoryField } from '../../../shared/newsroom';
import type { StoryFields } from '../../../shared/story-dto';
import { useServices } from '../services';
import { editorActions } from '../slice';
import type { StoryEditorRootState } from '../store';

// The story's fields around the body: headline, slug, excerpt, type, byline, the story's
// picture, and the search and sharing fields. Each input changes the store at once.

export const SLUG_REDIRECT_NOTE = 'The old address will redirect to the new one.';

function useField<F extends StoryField>(field: F): [StoryFields[F], (v: StoryFields[F]) => void] {
  const dispatch = useDispatch();
  const value = useSelector((s: StoryEditorRootState) => s.editor.fields[field]);
  return [value, (v) => dispatch(editorActions.fieldChanged({ field, value: v }))];
}

function Row({ label, htmlFor, hint, children }: { label: string; htmlFor: string; hint?: ReactNode; children: ReactNode }) {
  return (
    <div className="story-field">
      <label htmlFor={htmlFor}>{label}</label>
      {children}
      {hint && <p className="story-field__hint" id={`${htmlFor}-hint`}>{hint}</p>}
    </div>
  );
}

function TextRow({ field, label, max, multiline, hint, type = 'text' }: { field: 'name' | 'slug' | 'excerpt' | 'author_name' | 'image_alt' | 'image_credit' | 'seo_title' | 'seo_description' | 'canonical_url' | 'sponsor_name'; label: string; max: number; multiline?: boolean; hint?: ReactNode; type?: string }) {
  const id = useId();
  const [value, set] = useField(field);
  const props = { id, value, maxLength: max, 'aria-describedby': hint ? `${id}-hint` : undefined };
  return (
    <Row label={label} htmlFor={id} hint={hint}>
      {multiline ? <textarea {...props} rows={3} onChange={(e) => set(e.target.value)} /> : <input {...props} type={type} onChange={(e) => set(e.target.value)} />}
    </Row>
  );
}

function ImageRow({ field, label }: { field: 'image_key' | 'social_image_key'; label: string }) {
  const { api } = useServices();
  const id = useId();
  const [key, set] = useField(field);
  const [state, setState] = useState<string | null>(null);
  return (
    <div className="story-field story-field--image">
      <span className="story-field__label" id={`${id}-label`}>{label}</span>
      {key ? <img className="story-field__preview" src={imageUrl(key, 'articleCard')} alt="" width={240} height={160} /> : <p className="story-field__hint">No picture yet.</p>}
      <div className="story-field__actions">
        <label className="button button--secondary" htmlFor={id}>{key ? 'Replace picture' : 'Upload a picture'}</label>
        <input
          id={id}
          className="visually-hidden"
          type="file"
          accept="image/*"
          aria-describedby={`${id}-label`}
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (!file) return;
            setState('Uploading…');
            api.uploadImage(file).then(
              (k) => (set(k), setState(null)),
              () => setState(`“${file.name}” could not be uploaded: it must be a picture under 10 MB.`),
            );
          }}
        />
        {key && <button type="button" className="button--quiet" onClick={() => set(null)}>Remove {label.toLowerCase()}</button>}
      </div>
      {state && <p className="story-field__hint" role="status">{state}</p>}
    </div>
  );
}

export function StoryFieldsForm({ types }: { types: Array<{ id: number; name: string }> }) {
  const typeId = useId();
  const sponsoredId = useId();
  const [type, setType] = useField('type_id');
  const [sponsored, setSponsored] = useField('is_sponsored');
  const slug = useSelector((s: StoryEditorRootState) => s.editor.fields.slug);
  const publishedSlug = useSelector((s: StoryEditorRootState) => s.editor.publishedSlug);
  const seo = useSelector((s: StoryEditorRootState) => s.editor.fields.seo_description);
  const imageKey = useSelector((s: StoryEditorRootState) => s.editor.fields.image_key);
  const over = seo.length > STORY_LIMITS.seoDescriptionMax;
  return (
    <div className="story-fields">
      <TextRow field="name" label="Headline" max={STORY_LIMITS.titleMax} />
      <TextRow field="slug" label="Slug" max={STORY_LIMITS.slugMax} hint={publishedSlug && slug !== publishedSlug ? <strong className="story-note">{SLUG_REDIRECT_NOTE}</strong> : 'Lower-case words and hyphens; made from the headline when empty.'} />
      <TextRow field="excerpt" label="Excerpt (dek)" max={STORY_LIMITS.excerptMax} multiline />
      <div className="story-fields__pair">
        <Row label="Type" htmlFor={typeId}>
          <select id={typeId} value={type ?? ''} onChange={(e) => setType(e.target.value ? Number(e.target.value) : null)}>
            {type === null && <option value="">Choose a type</option>}
            {types.map((t) => <option key={t.id} value={t.id}>{t.name}</option>)}
          </select>
        </Row>
        <TextRow field="author_name" label="Byline" max={STORY_LIMITS.titleMax} />
      </div>
      <ImageRow field="image_key" label="Story picture" />
      {imageKey && (
        <div className="story-fields__pair">
          <TextRow field="image_alt" label="Picture alt text" max={STORY_LIMITS.altMax} />
          <TextRow field="image_credit" label="Picture credit" max={STORY_LIMITS.creditMax} />
        </div>
      )}
      <details className="story-fields__more">
        <summary>Search, sharing and sponsorship</summary>
        <TextRow field="seo_title" label="SEO title" max={STORY_LIMITS.seoTitleMax} />
        <TextRow
          field="seo_description"
          label="SEO description"
          max={STORY_LIMITS.seoDescriptionMax * 4}
          multiline
          hint={<span className={over ? 'story-counter story-counter--over' : 'story-counter'} aria-live="polite">{seo.length} / {STORY_LIMITS.seoDescriptionMax}{over ? ' — too long' : ''}</span>}
        />
        <TextRow field="canonical_url" label="Canonical URL" max={2000} type="url" hint="Only when the story first appeared elsewhere." />
        <ImageRow field="social_image_key" label="Social picture" />
        <div className="story-field story-field--check">
          <input id={sponsoredId} type="checkbox" checked={sponsored} onChange={(e) => setSponsored(e.target.checked)} />
          <label htmlFor={sponsoredId}>Sponsored</label>
        </div>
        {sponsored && <TextRow field="sponsor_name" label="Sponsor" max={STORY_LIMITS.titleMax} />}
      </details>
    </div>
  );
}
