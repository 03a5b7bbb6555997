// Each writer's colour for their caret, selection and name in the story (live/binding.ts, the
// list of who is in the story): dark enough for white names on them (4.5:1 or more), and the
// same for a member in every tab and on every other writer's screen. Six-digit hex, the only
// form y-prosemirror draws.
const COLORS = ['#b0306a', '#1b5e9c', '#2f7d32', '#6a3d9a', '#a34700', '#00695c', '#8a2f2f', '#4a5a1c'];

export const colorFor = (memberId: number): string => COLORS[Math.abs(memberId) % COLORS.length];
