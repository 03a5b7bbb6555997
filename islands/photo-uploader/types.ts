/** What the listing photo page prints for the uploader (server/apps/photos/pages.ts). */
export type { PhotoUploaderInitialState } from '../../shared/islands';

export type FileStatus = 'idle' | 'uploading' | 'complete' | 'error';

export interface UploadItem {
  id: string;
  name: string;
  size: number;
  previewUrl: string;
  status: FileStatus;
  percent: number;
}
