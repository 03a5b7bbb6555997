import { CSRF_COOKIE, ApiError, readCookie } from '../common/api';

// POST /api/v2/photos/ {image (base64 JPEG), title, description, listing}. XMLHttpRequest
// rather than fetch so the request body's progress can be shown per file.

export interface PhotoUploadBody {
  image: string;
  title: string;
  description: string;
  listing: number;
}

export interface PhotoUploaderApi {
  readAsBase64(file: File): Promise<string>;
  uploadPhoto(body: PhotoUploadBody, onProgress: (percent: number) => void): Promise<{ id: number }>;
}

export function readAsBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('Could not read the file.'));
    reader.readAsDataURL(file);
  });
}

export function uploadPhoto(body: PhotoUploadBody, onProgress: (percent: number) => void): Promise<{ id: number }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/v2/photos/');
    xhr.withCredentials = true;
    xhr.setRequestHeader('Content-Type', 'application/json');
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('X-CSRFToken', readCookie(CSRF_COOKIE) ?? '');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress((e.loaded / e.total) * 100);
    };
    xhr.onload = () => {
      let data: unknown = null;
      try {
        data = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        data = { detail: xhr.responseText.slice(0, 200) };
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(data as { id: number });
      else reject(new ApiError(xhr.status, (data ?? {}) as { detail?: string }));
    };
    xhr.onerror = () => reject(new Error('network'));
    xhr.send(JSON.stringify(body));
  });
}

export const photoUploaderApi: PhotoUploaderApi = { readAsBase64, uploadPhoto };
