/**
 * The Lab's lifestyle-policy handlers (`lab.listPolicies`, `lab.clearPolicies`): the policies
 * studio runs keep per persona in `<dataDir>/policies/` (engine/agent/policyStore.ts), listed
 * and cleared per person or for the whole town. A file that cannot be read is listed with its
 * error, and cleared all the same.
 */
import type { ParsedInputOf, RawOutputOf } from '../../../common/api/contract';
import type { LabContract, PolicyView } from '../../../common/api/lab';
import { existsSync, readdirSync } from 'node:fs';
import { FilePolicyStore, policyKey } from '../../engine/agent/policyStore';

type In<K extends keyof LabContract['methods']> = ParsedInputOf<LabContract, K>;
type Out<K extends keyof LabContract['methods']> = RawOutputOf<LabContract, K>;

export class LabPolicies {
  constructor(private readonly policies: FilePolicyStore) {}

  /** Store keys of a scenario: every persona key starts with this (policyKey's layout). */
  private prefixOf(scenarioId: string): string {
    return policyKey(scenarioId, '');
  }

  async list({ scenarioId, personaIds }: In<'lab.listPolicies'>): Promise<Out<'lab.listPolicies'>> {
    const byKey = new Map(personaIds.map((id) => [policyKey(scenarioId, id), id]));
    const prefix = this.prefixOf(scenarioId);
    const personas: Out<'lab.listPolicies'>['personas'] = [];
    for (const key of this.keys()) {
      if (!key.startsWith(prefix) && !byKey.has(key)) continue;
      let policies: PolicyView[] = [];
      let error: string | null = null;
      try {
        policies = this.policies.load(key).map((p) => ({
          id: p.id,
          plan: p.plan,
          tasks: p.tasks.map((t) => ({
            task: t.task,
            minutes: t.minutes,
            location: t.action?.location ?? null,
          })),
          condition: p.condition,
          storedAt: p.storedAt,
        }));
      } catch (e) {
        error = (e as Error).message;
      }
      personas.push({ key, personaId: byKey.get(key) ?? null, policies, error });
    }
    return { folder: this.policies.folder, personas };
  }

  /** Keys present in the store folder (a file that cannot be read is still listed). */
  private keys(): string[] {
    if (!existsSync(this.policies.folder)) return [];
    return readdirSync(this.policies.folder)
      .filter((f) => /^[A-Za-z0-9._-]{1,120}\.json$/.test(f))
      .map((f) => f.slice(0, -'.json'.length))
      .sort();
  }

  async clear({
    scenarioId,
    personaId,
  }: In<'lab.clearPolicies'>): Promise<Out<'lab.clearPolicies'>> {
    const prefix = this.prefixOf(scenarioId);
    const keys =
      personaId !== undefined
        ? [policyKey(scenarioId, personaId)]
        : this.keys().filter((k) => k.startsWith(prefix));
    let cleared = 0;
    for (const key of keys) {
      try {
        cleared += this.policies.load(key).length;
      } catch {
        // An unreadable file is removed all the same: the user asked for it to go.
      }
      this.policies.clear(key);
    }
    return { cleared };
  }
}
