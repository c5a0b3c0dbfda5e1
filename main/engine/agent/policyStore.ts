/**
 * Where lifestyle policies live between runs: one JSON file per persona key in a folder the
 * caller chooses (the app: `<dataDir>/policies/`). A run reads its agents' policies when it is
 * created and adds each new one as it is stored; list and clear are for the policy inspector.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomicSync } from '../../fsx/atomic';
import { lifestylePolicySchema, type LifestylePolicy } from './costLayerState';

/** Cross-run storage of lifestyle policies, keyed per persona (see {@link policyKey}). */
export interface PolicyStore {
  /** The policies stored under `key`, oldest first ([] when none). */
  load(key: string): LifestylePolicy[];
  /** Adds `policy` under `key` unless a policy with its id is there already. */
  add(key: string, policy: LifestylePolicy): void;
  /** Every key with its number of policies, sorted by key. */
  list(): { key: string; policies: number }[];
  /** Removes the policies of `key`, or of every key when none is given. */
  clear(key?: string): void;
}

/** The store key of a persona of a scenario: policies carry over between runs of it. */
export function policyKey(scenarioId: string, personaId: string): string {
  const safe = (s: string) => s.replace(/[^A-Za-z0-9._-]/g, '_');
  return `${safe(scenarioId)}--${safe(personaId)}`.slice(0, 120);
}

const KEY = /^[A-Za-z0-9._-]{1,120}$/;
const fileSchema = z.object({
  version: z.literal(1),
  key: z.string(),
  policies: z.array(lifestylePolicySchema),
});

/** A {@link PolicyStore} of `<folder>/<key>.json` files, written atomically. */
export class FilePolicyStore implements PolicyStore {
  constructor(readonly folder: string) {}

  load(key: string): LifestylePolicy[] {
    const file = this.fileOf(key);
    if (!existsSync(file)) return [];
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      throw new Error(`policy file ${file} is not valid JSON: ${(error as Error).message}`);
    }
    const parsed = fileSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(`policy file ${file}: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
    }
    return parsed.data.policies;
  }

  add(key: string, policy: LifestylePolicy): void {
    const policies = this.load(key);
    if (policies.some((p) => p.id === policy.id)) return;
    this.write(key, [...policies, policy]);
  }

  list(): { key: string; policies: number }[] {
    if (!existsSync(this.folder)) return [];
    return readdirSync(this.folder)
      .filter((f) => f.endsWith('.json'))
      .map((f) => f.slice(0, -'.json'.length))
      .filter((key) => KEY.test(key))
      .sort()
      .map((key) => ({ key, policies: this.load(key).length }));
  }

  clear(key?: string): void {
    const keys = key === undefined ? this.list().map((k) => k.key) : [key];
    for (const k of keys) rmSync(this.fileOf(k), { force: true });
  }

  private fileOf(key: string): string {
    if (!KEY.test(key)) {
      throw new Error(`policy key "${key}" must be 1–120 letters, digits, ".", "_" or "-"`);
    }
    return path.join(this.folder, `${key}.json`);
  }

  private write(key: string, policies: LifestylePolicy[]): void {
    mkdirSync(this.folder, { recursive: true });
    writeFileAtomicSync(this.fileOf(key), JSON.stringify({ version: 1, key, policies }));
  }
}

/**
 * The policies a run started with, per agent id, from the run's copy (`policies.json`);
 * {} when the file is absent (the run had the lifestyle policy off).
 */
export function readInitialPolicies(file: string): Record<string, LifestylePolicy[]> {
  if (!existsSync(file)) return {};
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`${file} is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = z
    .object({ initial: z.record(z.string(), z.array(lifestylePolicySchema)) })
    .safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${file}: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  return parsed.data.initial;
}
