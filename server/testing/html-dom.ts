import { createRequire } from 'node:module';

// A page's HTML as a DOM (jsdom) for server tests that read it as a browser would. jsdom is
// loaded untyped: its types pull the DOM library into the server's TypeScript project, where
// DOM and Node's own fetch types disagree. What tests use of the DOM is typed here instead.

export interface HtmlElement {
  readonly tagName: string;
  readonly children: ArrayLike<HtmlElement> & Iterable<HtmlElement>;
  readonly textContent: string | null;
  readonly outerHTML: string;
  readonly innerHTML: string;
  getAttribute(name: string): string | null;
  getAttributeNames(): string[];
  querySelector(selector: string): HtmlElement | null;
  querySelectorAll(selector: string): ArrayLike<HtmlElement> & Iterable<HtmlElement>;
  getElementsByTagName(tag: string): { readonly length: number };
}

export interface HtmlDocument {
  readonly title: string;
  querySelector(selector: string): HtmlElement | null;
  querySelectorAll(selector: string): ArrayLike<HtmlElement> & Iterable<HtmlElement>;
  getElementsByTagName(tag: string): { readonly length: number };
}

type JsdomModule = { JSDOM: new (html: string, options?: { url?: string }) => { window: { document: HtmlDocument } } };

let jsdom: JsdomModule | undefined;

/** The document a browser would build from `html` (no scripts run, nothing is fetched). */
export function parseHtml(html: string, url = 'http://127.0.0.1/'): HtmlDocument {
  jsdom ??= createRequire(__filename)('jsdom') as JsdomModule;
  return new jsdom.JSDOM(html, { url }).window.document;
}
