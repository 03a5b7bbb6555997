import { z } from 'zod';
import { validate } from '../../http/validate';
import { toArticleDTO, type ArticleRow } from '../articles/serialize';
import { articlesQuery, whereArticleIsPublic } from '../articles/queries';
import { messages, pkField } from '../saves/fields';
import { isoTime, type ArticleBookmarkDTO } from '../saves/dto';
import { defineSaveKind, type SaveKind } from '../saves/save-kind';
import { publicArticleId } from './queries';

// Saved articles. Sort tabs (spec 1 §2): A–Z (article_name), MOST RECENT (-article_date),
// RECENTLY SAVED (-date_created, the default).

const createPayload = z.object({ object_id: pkField });

/** Built once per context (AppContext.saveKinds). */
export function createArticleBookmarksKind(): SaveKind<ArticleBookmarkDTO, ArticleRow> {
  return defineSaveKind<ArticleBookmarkDTO, ArticleRow>('articleBookmarks', {
    table: 'article_bookmarks',
    objectColumn: 'article_id',
    objectTable: 'articles',
    objectAlias: 'a',
    visible: (qb, now) => void whereArticleIsPublic(qb, now),
    saveColumns: [],
    objectQuery: (db, _memberId, now) => articlesQuery(db, now),
    // A scheduled article cannot be saved before its time (its id would otherwise tell it exists).
    unsaveableReason: async (db, articleId, now) =>
      (await publicArticleId(db, articleId, now)) ? null : messages.doesNotExist(articleId),
    toDTO: (row, siteUrl) => ({
      id: row.save_id,
      object_id: Number(row.id),
      date_created: isoTime(row.save_date_created),
      article: toArticleDTO(row, siteUrl),
    }),
    parseCreate: (body) => ({ objectId: validate(createPayload, body).object_id }),
    list: {
      orderings: {
        article_name: [{ column: 'a.name', order: 'asc' }],
        '-article_date': [{ column: 'a.date_published', order: 'desc' }],
      },
    },
  });
}

// AppContext.saveKinds.articleBookmarks is this kind (the registry builds it).
declare module '../../context' {
  interface SaveKinds {
    articleBookmarks: SaveKind<ArticleBookmarkDTO, ArticleRow>;
  }
}
