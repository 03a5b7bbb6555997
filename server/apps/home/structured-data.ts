import type { Config } from '../../config';

/** WebSite with a SearchAction (the sitelinks search box) and the publishing Organization. */
export function websiteJsonLd(config: Config) {
  return {
    '@context': 'https://schema.org',
    '@graph': [
      {
        '@type': 'WebSite',
        '@id': `${config.site.url}/#website`,
        url: `${config.site.url}/`,
        name: config.site.name,
        inLanguage: 'en-CA',
        potentialAction: {
          '@type': 'SearchAction',
          target: { '@type': 'EntryPoint', urlTemplate: `${config.site.url}/search?q={search_term_string}` },
          'query-input': 'required name=search_term_string',
        },
      },
      {
        '@type': 'Organization',
        '@id': `${config.site.url}/#organization`,
        name: config.site.name,
        url: `${config.site.url}/`,
        logo: `${config.site.url}/static/img/favicon.svg`,
      },
    ],
  };
}
