import { z } from 'zod';
import { PAGE_SIZE } from '../../../shared/constants';
import { validate } from '../../http/validate';
import { toVideoDTO, videosQuery, type VideoRow } from '../videos/serialize';
import { messages, pkField } from '../saves/fields';
import { isoTime, type VideoBookmarkDTO } from '../saves/dto';
import type { SaveKind } from '../saves/kind';
import { bookmarkList } from './list';

// Saved videos. Sort tabs (spec 1 §2): A–Z (video_title), MOST RECENT (-video_date),
// RECENTLY SAVED (-date_created, the default). The create payload names the video `video`
// (spec 2 §7), and the islands read the save time as `video.date_created`.

const createPayload = z.object({ video: pkField });

export const videoBookmarksKind: SaveKind<VideoBookmarkDTO> = {
  table: 'video_bookmarks',
  objectColumn: 'video_id',
  objectTable: 'videos',
  objectAlias: 'v',
  objectField: 'video',
  lastUpdateKey: 'video-bookmarks',
  saveColumns: [],
  objectQuery: (db) => videosQuery(db),
  unsaveableReason: async (db, videoId) => ((await db('videos').where({ id: videoId }).first('id')) ? null : messages.doesNotExist(videoId)),
  toDTO: (row, siteUrl) => {
    const dateCreated = isoTime(row.save_date_created);
    return {
      id: row.save_id,
      object_id: Number(row.id),
      date_created: dateCreated,
      video: { ...toVideoDTO(row as unknown as VideoRow, siteUrl), date_created: dateCreated },
    };
  },
  parseCreate: (body) => ({ objectId: validate(createPayload, body).video }),
  list: bookmarkList(PAGE_SIZE.videoBookmarks, {
    video_title: [{ column: 'v.title', order: 'asc' }],
    '-video_date': [{ column: 'v.date_published', order: 'desc' }],
  }),
};
