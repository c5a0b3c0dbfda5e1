/**
 * What this machine can run, and which catalog models to suggest for it.
 */
import os from 'node:os';
import { getLlamaRuntime } from '../llama/llama-runtime.ts';
import { freeCores } from '../llama/threads.ts';
import { MODEL_CATALOG, type CatalogModel } from './catalog.ts';

/** RAM, cores and GPU of this machine. */
export interface HardwareSummary {
  totalRamBytes: number;
  freeRamBytes: number;
  cpuCores: number;
  freeCores: number;
  /** `null` when no GPU backend was found (or probing was skipped). */
  gpu: { type: string; names: string[]; vramBytes: number; freeVramBytes: number } | null;
  platform: string;
  arch: string;
}

/**
 * Reads the hardware. `probeGpu` (default true) loads node-llama-cpp's GPU backends, which
 * takes about half a second the first time; the binding is reused by model loads afterwards.
 */
export async function getHardwareSummary(
  options: { probeGpu?: boolean } = {},
): Promise<HardwareSummary> {
  let gpu: HardwareSummary['gpu'] = null;
  if (options.probeGpu ?? true) {
    try {
      const llama = await getLlamaRuntime('auto', freeCores());
      if (llama.gpu !== false) {
        const vram = await llama.getVramState();
        gpu = {
          type: llama.gpu,
          names: await llama.getGpuDeviceNames(),
          vramBytes: vram.total,
          freeVramBytes: vram.free,
        };
      }
    } catch {
      gpu = null; // No usable backend binary: report CPU only rather than fail the summary.
    }
  }
  return {
    totalRamBytes: os.totalmem(),
    freeRamBytes: os.freemem(),
    cpuCores: os.availableParallelism(),
    freeCores: freeCores(),
    gpu,
    platform: process.platform,
    arch: process.arch,
  };
}

/** Suggested models for a machine, with the reason in words. */
export interface ModelRecommendation {
  chat: CatalogModel;
  embedding: CatalogModel;
  reason: string;
}

/**
 * Picks the largest chat model whose RAM need fits in half the machine's memory (the rest is
 * for the OS, Electron and the renderer) or in the GPU's memory.
 */
export function recommendModels(hardware: HardwareSummary): ModelRecommendation {
  const chats = MODEL_CATALOG.filter((m) => m.kind === 'chat');
  const budget = Math.max(hardware.totalRamBytes / 2, hardware.gpu?.vramBytes ?? 0);
  const fitting = chats.filter((m) => m.ramBytes <= budget);
  const chat =
    fitting.length > 0 ? fitting.reduce((a, b) => (b.ramBytes > a.ramBytes ? b : a)) : chats[0];
  const embedding = MODEL_CATALOG.find((m) => m.kind === 'embedding')!;
  const gb = (n: number) => `${(n / 1024 ** 3).toFixed(1)} GB`;
  const where = hardware.gpu
    ? `${hardware.gpu.type} GPU with ${gb(hardware.gpu.vramBytes)}`
    : `CPU with ${hardware.cpuCores} cores`;
  const reason =
    fitting.length > 0
      ? `${chat.name} needs about ${gb(chat.ramBytes)}; this machine has ${gb(hardware.totalRamBytes)} RAM and a ${where}.`
      : `Even ${chat.name} (${gb(chat.ramBytes)}) is tight with ${gb(hardware.totalRamBytes)} RAM; expect slow steps or use an OpenAI-compatible server.`;
  return { chat, embedding, reason };
}
