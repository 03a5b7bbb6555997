// The picked image stays out of the store (not serializable); the action carries an id.
const files = new Map<string, File>();
let next = 0;

export function registerFile(file: File): string {
  next += 1;
  files.set(`img${next}`, file);
  return `img${next}`;
}

export const fileFor = (id: string): File | undefined => files.get(id);
