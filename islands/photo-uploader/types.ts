/** What the listing photo page prints for the uploader (server/apps/photos/pages.ts). */
export interface PhotoUploaderInitialState {
  listing: { id: number; name: string };
  /** ?upload=1: show the uploader; otherwise only the recent-upload notice may show. */
  upload: boolean;
  /** Largest JPEG accepted, in MB (PHOTO_UPLOAD_MAX_MB). */
  maxMb: number;
  /** Where to go when the uploads are done (the photo list without ?upload=1). */
  completionPath: string;
}

export type FileStatus = 'idle' | 'uploading' | 'complete' | 'error';

export interface UploadItem {
  id: string;
  name: string;
  size: number;
  previewUrl: string;
  status: FileStatus;
  percent: number;
}
