// File objects stay out of the store (they are not serializable): the store keeps an id, and
// this registry maps the id to the File for the saga that reads it.
const files = new Map<string, File>();
let next = 0;

export function registerFile(file: File): string {
  next += 1;
  const id = `f${next}`;
  files.set(id, file);
  return id;
}

export const fileFor = (id: string): File | undefined => files.get(id);
export const forgetFile = (id: string): void => void files.delete(id);

/** Spec 1 §5: listing photos are JPG only, up to maxMb megabytes. */
export function isAcceptablePhoto(file: Pick<File, 'name' | 'type' | 'size'>, maxMb: number): boolean {
  const jpeg = file.type === 'image/jpeg' || (!file.type && /\.jpe?g$/i.test(file.name));
  return jpeg && /\.jpe?g$/i.test(file.name) && file.size > 0 && file.size <= maxMb * 1024 * 1024;
}

export const photoCountLabel = (n: number) => `${n} Photo${n === 1 ? '' : 's'}`;
