import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * Real photos of people neutral and smiling: the Face Research Lab London Set (DeBruine & Jones,
 * 2017, CC-BY 4.0, https://doi.org/10.6084/m9.figshare.5047666): 102 adults photographed in London
 * in 2012 in studio light, 1350 × 1350 px, each from the front neutral (`NNN_03.jpg`) and smiling
 * (`NNN_08.jpg`), with their self-reported age, gender and ethnicity. Not shipped with the product
 * (its licence asks for credit, and the repository holds only data we made): the liveness bench
 * reads it from the folder `LIVENESS_BENCH_PHOTOS` names, holding the set's `neutral_front/` and
 * `smiling_front/` folders (as its archives of those names unpack) and its info table (a CSV with
 * `face_id` and `face_eth`; without it the rows are skin-tone groups only).
 */
export interface PhotoPair {
  id: string;
  /** Self-reported, as the set lists it (`black`, `east_asian`, `west_asian`, `white`, `east_asian/white`); null without the list. */
  ethnicity: string | null;
  neutral: string;
  smiling: string;
}

/** face_id → face_eth from the set's info table: any CSV in the folder with those two columns. */
function ethnicities(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const file of readdirSync(dir).filter((f) => f.toLowerCase().endsWith('.csv'))) {
    const [header, ...lines] = readFileSync(path.join(dir, file), 'utf8').trim().split(/\r?\n/);
    const cells = (line: string) => line.split(',').map((c) => c.trim().replace(/^"|"$/g, ''));
    const id = cells(header).indexOf('face_id');
    const eth = cells(header).indexOf('face_eth');
    if (id < 0 || eth < 0) continue;
    for (const line of lines) out.set(cells(line)[id].replace(/^X/, '').padStart(3, '0'), cells(line)[eth]);
  }
  return out;
}

export function londonSet(dir: string): PhotoPair[] {
  const ethnicity = ethnicities(dir);
  const neutral = path.join(dir, 'neutral_front');
  const smiling = path.join(dir, 'smiling_front');
  return readdirSync(neutral)
    .map((file) => /^(\d{3})_03\.jpg$/i.exec(file)?.[1])
    .filter((id): id is string => id !== undefined && existsSync(path.join(smiling, `${id}_08.jpg`)))
    .sort()
    .map((id) => ({
      id,
      ethnicity: ethnicity.get(id) ?? null,
      neutral: path.join(neutral, `${id}_03.jpg`),
      smiling: path.join(smiling, `${id}_08.jpg`),
    }));
}
