import { grouped } from '../../report/words';

/** How the Brand Hub reports write a figure that may be missing ("—"). */

export const money = (n: number | null) =>
  n === null ? '—' : `£${n.toLocaleString('en-GB', { maximumFractionDigits: 2 })}`;
export const n0 = (n: number | null) => (n === null ? '—' : grouped(n));
export const pc = (n: number | null) => (n === null ? '—' : `${n}%`);
