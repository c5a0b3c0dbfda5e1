/**
 * One shared node-llama-cpp binding per (gpu mode, thread cap). Loading the binding costs
 * ~0.5 s (it probes CUDA/Vulkan prebuilt backends), so providers share it.
 */
import { getLlama, LlamaLogLevel, type Llama } from 'node-llama-cpp';

/** `'auto'` tries CUDA / Vulkan / Metal prebuilt backends and falls back to the CPU. */
export type GpuMode = 'auto' | false;

const bindings = new Map<string, Promise<Llama>>();

/**
 * Returns a node-llama-cpp binding. Never compiles or downloads llama.cpp (`build: 'never'`):
 * only the prebuilt binaries shipped in node_modules are used. When the GPU probe itself
 * throws, it retries on the CPU instead of failing the model load.
 */
export function getLlamaRuntime(gpu: GpuMode, maxThreads: number): Promise<Llama> {
  const key = `${gpu}:${maxThreads}`;
  let binding = bindings.get(key);
  if (!binding) {
    binding = (async () => {
      const common = {
        build: 'never',
        maxThreads,
        logLevel: LlamaLogLevel.error,
        progressLogs: false,
      } as const;
      if (gpu === false) return getLlama({ ...common, gpu: false });
      try {
        return await getLlama({ ...common, gpu: 'auto' });
      } catch {
        return getLlama({ ...common, gpu: false });
      }
    })();
    binding.catch(() => bindings.delete(key));
    bindings.set(key, binding);
  }
  return binding;
}
