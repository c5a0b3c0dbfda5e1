/**
 * Recommended models. Sizes and digests marked exact are the Hugging Face LFS values (cross-
 * checked against public manifests that pin them); the others are approximate and the
 * download is then checked against the server's Content-Length only.
 */

/** One file of a catalog model. */
export interface CatalogFile {
  /** Path inside the model's local location (a file name for GGUFs, a relative path in a folder). */
  path: string;
  url: string;
  sizeBytes?: number;
  sha256?: string;
}

/** A model the app recommends and can download. */
export interface CatalogModel {
  id: string;
  kind: 'chat' | 'embedding';
  name: string;
  description: string;
  quantization: string;
  /** Total download size in bytes (exact when every file has a sha256). */
  sizeBytes: number;
  /** Memory to run it comfortably (weights + a few agents' KV cache), bytes. */
  ramBytes: number;
  /** Hugging Face repository. */
  huggingFace: string;
  license: string;
  /**
   * Where it is stored under the models folder: a `.gguf` file name for chat models, a
   * folder name for embedding models.
   */
  localName: string;
  files: CatalogFile[];
}

const GB = 1024 ** 3;
const hf = (repo: string, file: string) => `https://huggingface.co/${repo}/resolve/main/${file}`;

function gguf(
  id: string,
  name: string,
  repo: string,
  file: string,
  sizeBytes: number,
  ramBytes: number,
  license: string,
  description: string,
  sha256?: string,
): CatalogModel {
  return {
    id,
    kind: 'chat',
    name,
    description,
    quantization: 'Q4_K_M',
    sizeBytes,
    ramBytes,
    huggingFace: repo,
    license,
    localName: file,
    files: [{ path: file, url: hf(repo, file), sizeBytes: sha256 ? sizeBytes : undefined, sha256 }],
  };
}

const MINILM_REPO = 'Xenova/all-MiniLM-L6-v2';

/** The recommended chat and embedding models, smallest first per kind. */
export const MODEL_CATALOG: readonly CatalogModel[] = [
  gguf(
    'llama-3.2-1b-instruct-q4_k_m',
    'Llama 3.2 1B Instruct',
    'bartowski/Llama-3.2-1B-Instruct-GGUF',
    'Llama-3.2-1B-Instruct-Q4_K_M.gguf',
    807_694_464,
    2 * GB,
    'Llama 3.2 Community License',
    'Smallest and fastest; fine for small towns on any laptop.',
    '6f85a640a97cf2bf5b8e764087b1e83da0fdb51d7c9fab7d0fece9385611df83',
  ),
  gguf(
    'qwen2.5-1.5b-instruct-q4_k_m',
    'Qwen2.5 1.5B Instruct',
    'Qwen/Qwen2.5-1.5B-Instruct-GGUF',
    'qwen2.5-1.5b-instruct-q4_k_m.gguf',
    1_117_320_736,
    2.5 * GB,
    'Apache-2.0',
    'Good JSON discipline for its size; the default on 8 GB machines.',
    '6a1a2eb6d15622bf3c96857206351ba97e1af16c30d7a74ee38970e434e9407e',
  ),
  gguf(
    'llama-3.2-3b-instruct-q4_k_m',
    'Llama 3.2 3B Instruct',
    'bartowski/Llama-3.2-3B-Instruct-GGUF',
    'Llama-3.2-3B-Instruct-Q4_K_M.gguf',
    2_020_000_000,
    4 * GB,
    'Llama 3.2 Community License',
    'More believable dialogue; wants 16 GB of RAM or a GPU.',
  ),
  gguf(
    'qwen2.5-3b-instruct-q4_k_m',
    'Qwen2.5 3B Instruct',
    'Qwen/Qwen2.5-3B-Instruct-GGUF',
    'qwen2.5-3b-instruct-q4_k_m.gguf',
    2_100_000_000,
    4.5 * GB,
    'Qwen Research License',
    'Best quality in the catalog; wants 16 GB of RAM or a GPU.',
  ),
  {
    id: 'all-minilm-l6-v2',
    kind: 'embedding',
    name: 'all-MiniLM-L6-v2 (ONNX)',
    description: '384-dimensional sentence embeddings; the reference memory-retrieval model.',
    quantization: 'fp32',
    sizeBytes: 91_000_000,
    ramBytes: 0.3 * GB,
    huggingFace: MINILM_REPO,
    license: 'Apache-2.0',
    localName: 'all-MiniLM-L6-v2',
    files: [
      'config.json',
      'tokenizer.json',
      'tokenizer_config.json',
      'special_tokens_map.json',
      'onnx/model.onnx',
    ].map((path) => ({
      path,
      url: hf(MINILM_REPO, path),
    })),
  },
];

/** The catalog entry with this id. */
export function findCatalogModel(id: string): CatalogModel | undefined {
  return MODEL_CATALOG.find((model) => model.id === id);
}
