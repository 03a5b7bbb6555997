// What a paste from Google Docs or Word becomes before ProseMirror reads it through the story
// schema (which already drops tables, fonts, colours and the like): Google Docs' all-bold
// wrapper unwrapped, Word's list paragraphs made real lists, its namespaced tags and empty
// spacer paragraphs removed, h1 and h4–h6 made the schema's two levels, and pictures taken
// out (a picture on another site is not ours to show; own pictures become image blocks).

export interface CleanedPaste {
  html: string;
  /** Addresses (http, https) of pictures from other sites that were taken out … */
  foreignImages: string[];
  /** … and how many pictures were taken out in all (a desktop program's have no address). */
  droppedImages: number;
}

function unwrap(el: Element): void {
  el.replaceWith(...Array.from(el.childNodes));
}

function rename(el: Element, tag: string): void {
  const to = el.ownerDocument.createElement(tag);
  to.append(...Array.from(el.childNodes));
  el.replaceWith(to);
}

const style = (el: Element) => el.getAttribute('style') ?? '';
const isWordListParagraph = (el: Element) => el.tagName === 'P' && (/^MsoListParagraph/i.test(el.getAttribute('class') ?? '') || /mso-list:\s*l\d+/i.test(style(el)));
const levelOf = (el: Element) => Number(/level(\d+)/i.exec(style(el))?.[1] ?? 1);

/** Takes out Word's typed list marker ("1.", "·", "o") and says whether it numbered. */
function takeMarker(p: Element): boolean {
  const marker = Array.from(p.querySelectorAll('span')).find((s) => /mso-list:\s*ignore/i.test(style(s)));
  const text = (marker?.textContent ?? '').replace(/\u00a0/g, ' ').trim();
  marker?.remove();
  return /^(\d+|[a-z]|[ivxlcdm]+)[.)]/i.test(text);
}

function wordLists(body: HTMLElement): void {
  const paragraphs = Array.from(body.querySelectorAll('p')).filter(isWordListParagraph);
  const doc = body.ownerDocument;
  let i = 0;
  while (i < paragraphs.length) {
    const run = [paragraphs[i]];
    while (i + run.length < paragraphs.length && run[run.length - 1].nextElementSibling === paragraphs[i + run.length]) run.push(paragraphs[i + run.length]);
    i += run.length;
    const stack: Array<{ list: HTMLElement; level: number }> = [];
    let outer: HTMLElement | null = null;
    for (const p of run) {
      const level = levelOf(p);
      const ordered = takeMarker(p);
      while (stack.length && stack[stack.length - 1].level > level) stack.pop();
      if (!stack.length || stack[stack.length - 1].level < level) {
        const list = doc.createElement(ordered ? 'ol' : 'ul');
        if (stack.length) {
          const parent = stack[stack.length - 1].list;
          (parent.lastElementChild ?? parent.appendChild(doc.createElement('li'))).append(list);
        } else outer = list;
        stack.push({ list, level });
      }
      const li = doc.createElement('li');
      const para = doc.createElement('p');
      para.append(...Array.from(p.childNodes));
      li.append(para);
      stack[stack.length - 1].list.append(li);
    }
    run[0].replaceWith(outer!);
    for (const p of run.slice(1)) p.remove();
  }
}

/** A picture on this site (/media/KEY): its media key; null for any other. */
function ownMediaKey(src: string, origin: string): string | null {
  try {
    const u = new URL(src, origin);
    if (u.origin !== origin || !u.pathname.startsWith('/media/')) return null;
    return decodeURIComponent(u.pathname.slice('/media/'.length));
  } catch {
    return null;
  }
}

export function cleanPastedHtml(html: string, origin = typeof location !== 'undefined' ? location.origin : 'http://localhost'): CleanedPaste {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const body = doc.body;
  const foreignImages: string[] = [];
  let droppedImages = 0;
  const fromWord = /urn:schemas-microsoft-com|class="?Mso|mso-/i.test(html);

  // Google Docs wraps the whole selection in a <b style="font-weight:normal">.
  body.querySelectorAll('b[id^="docs-internal-guid"]').forEach(unwrap);
  // Word's namespaced elements (<o:p>, VML shapes) and its style blocks.
  for (const el of Array.from(body.querySelectorAll('*'))) if (el.localName.includes(':')) el.remove();
  body.querySelectorAll('style, script, meta, link, title').forEach((el) => el.remove());
  wordLists(body);

  for (const img of Array.from(body.querySelectorAll('img'))) {
    const src = img.getAttribute('src') ?? '';
    const key = ownMediaKey(src, origin);
    if (key) {
      const figure = doc.createElement('figure');
      figure.setAttribute('data-story-image', '');
      figure.setAttribute('data-key', key);
      figure.setAttribute('data-alt', img.getAttribute('alt') ?? '');
      img.replaceWith(figure);
      continue;
    }
    if (/^https?:\/\//i.test(src)) foreignImages.push(src);
    droppedImages += 1;
    img.remove();
  }

  body.querySelectorAll('h1').forEach((h) => rename(h, 'h2'));
  body.querySelectorAll('h4, h5, h6').forEach((h) => rename(h, 'h3'));
  if (fromWord) {
    for (const p of Array.from(body.querySelectorAll('p'))) if (!p.textContent?.replace(/\u00a0/g, ' ').trim() && !p.querySelector('figure, br')) p.remove();
  }
  return { html: body.innerHTML, foreignImages, droppedImages };
}
