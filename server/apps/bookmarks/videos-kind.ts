import { z } from 'zod';
import { validate } from '../../http/validate';
import { toVideoDTO, type VideoRow } from '../videos/serialize';
import { videosQuery, whereVideoIsPublic } from '../videos/queries';
import { messages, pkField } from '../saves/fields';
import { isoTime, type VideoBookmarkDTO } from '../saves/dto';
import { defineSaveKind, type SaveKind } from '../saves/save-kind';
import { publicVideoId } from './queries';

// Saved videos. Sort tabs (spec 1 §2): A–Z (video_title), MOST RECENT (-video_date),
// RECENTLY SAVED (-date_created, the default). The create payload names the video `video`
// (spec 2 §7), and the islands read the save time as `video.date_created`.

const createPayload = z.object({ video: pkField });

/** Built once per context (AppContext.saveKinds). */
export function createVideoBookmarksKind(): SaveKind<VideoBookmarkDTO, VideoRow> {
  return defineSaveKind<VideoBookmarkDTO, VideoRow>('videoBookmarks', {
    table: 'video_bookmarks',
    objectColumn: 'video_id',
    objectTable: 'videos',
    objectAlias: 'v',
    visible: (qb, now) => void whereVideoIsPublic(qb, now, 'v'),
    saveColumns: [],
    objectQuery: (db, _memberId, now) => videosQuery(db, now),
    // A scheduled video cannot be saved before its time (its id would otherwise tell it exists).
    unsaveableReason: async (db, videoId, now) =>
      (await publicVideoId(db, videoId, now)) ? null : messages.doesNotExist(videoId),
    toDTO: (row, siteUrl) => {
      const dateCreated = isoTime(row.save_date_created);
      return {
        id: row.save_id,
        object_id: Number(row.id),
        date_created: dateCreated,
        video: { ...toVideoDTO(row, siteUrl), date_created: dateCreated },
      };
    },
    parseCreate: (body) => ({ objectId: validate(createPayload, body).video }),
    list: {
      orderings: {
        video_title: [{ column: 'v.title', order: 'asc' }],
        '-video_date': [{ column: 'v.date_published', order: 'desc' }],
      },
    },
  });
}

// AppContext.saveKinds.videoBookmarks is this kind (the registry builds it).
declare module '../../context' {
  interface SaveKinds {
    videoBookmarks: SaveKind<VideoBookmarkDTO, VideoRow>;
  }
}
