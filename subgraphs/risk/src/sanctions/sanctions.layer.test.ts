import { SanctionsLayer, type ScreeningEngineLike } from './sanctions.layer.js';

/** A fake engine over a fixed list: exact lower-case name matches score 0.97. */
function engine(entries: Array<{ name: string; kind: string; source: string }>) {
  let versions: Record<string, string> = { OFAC_SDN: 'v1', CUSTOM_PEP: 'v3' };
  const calls: string[] = [];
  const e: ScreeningEngineLike & { calls: string[]; bump(): void } = {
    calls,
    bump: () => (versions = { ...versions, OFAC_SDN: 'v2' }),
    versions: () => versions,
    search: (q) => {
      calls.push(q.fullName);
      return entries
        .filter((x) => x.name.toLowerCase() === q.fullName.toLowerCase())
        .map((x, i) => ({
          source: x.source,
          kind: x.kind,
          externalId: `E${i}`,
          entityType: 'INDIVIDUAL',
          primaryName: x.name,
          matchedName: x.name,
          score: 0.97,
          programs: ['TEST'],
          listVersion: versions[x.source] ?? 'v1',
        }));
    },
  };
  return e;
}

const party = (role: 'sender' | 'receiver', name: string) => ({ role, account: `${role}-1`, name, from: 'metadata' as const });

describe('sanctions layer', () => {
  const lists = [
    { name: 'Viktor Petrenko', kind: 'SANCTIONS', source: 'OFAC_SDN' },
    { name: 'Amina Odhiambo', kind: 'PEP', source: 'CUSTOM_PEP' },
  ];

  it('without an engine or without names it checks nothing', () => {
    expect(new SanctionsLayer(null, 0.85).screen([party('sender', 'x')])).toMatchObject({
      hits: [],
      listsChecked: 0,
      score: 0,
      action: 'allow',
    });
    expect(new SanctionsLayer(engine(lists), 0.85).screen([])).toMatchObject({
      hits: [],
      listsChecked: 0,
      note: 'no sender or receiver name available',
    });
  });

  it('a sanctions hit blocks and scores by kind weight × match score; a PEP hit reviews', () => {
    const layer = new SanctionsLayer(engine(lists), 0.85);
    const sanctioned = layer.screen([party('sender', 'Viktor Petrenko'), party('receiver', 'Jane Doe')]);
    expect(sanctioned).toMatchObject({ listsChecked: 2, partiesScreened: 2, action: 'block', score: 97 });
    expect(sanctioned.hits).toEqual([
      {
        party: 'sender',
        account: 'sender-1',
        name: 'Viktor Petrenko',
        source: 'OFAC_SDN',
        kind: 'SANCTIONS',
        externalId: 'E0',
        entityType: 'INDIVIDUAL',
        primaryName: 'Viktor Petrenko',
        matchedName: 'Viktor Petrenko',
        score: 0.97,
        programs: ['TEST'],
        addedDate: null,
        listVersion: 'v1',
      },
    ]);
    const pep = layer.screen([party('receiver', 'Amina Odhiambo')]);
    expect(pep).toMatchObject({ action: 'review', score: 38.8 });
  });

  it('remembers screened names until a list version changes', () => {
    const e = engine(lists);
    const layer = new SanctionsLayer(e, 0.85);
    layer.screen([party('sender', 'Viktor Petrenko')]);
    layer.screen([party('sender', 'viktor petrenko ')]);
    expect(e.calls).toEqual(['Viktor Petrenko']);
    e.bump();
    const again = layer.screen([party('sender', 'Viktor Petrenko')]);
    expect(e.calls).toHaveLength(2);
    expect(again.hits[0].listVersion).toBe('v2');
  });
});
