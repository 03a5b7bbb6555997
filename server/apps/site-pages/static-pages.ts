import type { AppContext } from '../../context';
import type { PageView } from '../../http/pages/page-view';

// Pages whose words live in their templates (templates/site-pages/{name}.njk).
const PAGES = {
  about: { title: 'About and data credits', description: 'Who we are, and the open data this site is built on.', path: '/about' },
  masthead: { title: 'Masthead', description: 'The editors, writers and photographers who make {site}.', path: '/masthead/' },
  jobs: { title: 'Jobs', description: 'Work with us: open positions at {site}.', path: '/jobs' },
  privacy: { title: 'Privacy policy', description: 'What {site} collects, why, and your choices.', path: '/privacy/' },
  termsofservice: { title: 'Terms of service', description: 'The terms for using {site}.', path: '/termsofservice/' },
} as const;

export type StaticPageName = keyof typeof PAGES;

export function staticPage(ctx: AppContext, name: StaticPageName): PageView {
  const page = PAGES[name];
  return {
    template: `site-pages/${name}.njk`,
    pageTitle: page.title,
    pageDescription: page.description.replace('{site}', ctx.config.site.name),
    canonicalUrl: `${ctx.config.site.url}${page.path}`,
  };
}
