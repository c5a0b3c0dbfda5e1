/**
 * Where the studio keeps its data (models, runs) when Electron's `userData` is not available,
 * i.e. in web mode and the CLI. SIMULACRA_DATA_DIR overrides it everywhere.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The per-user data folder, following each platform's convention. */
export function defaultDataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform = process.platform,
): string {
  if (env.SIMULACRA_DATA_DIR) return env.SIMULACRA_DATA_DIR;
  if (platform === 'win32')
    return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Simulacra Studio');
  if (platform === 'darwin')
    return join(homedir(), 'Library', 'Application Support', 'Simulacra Studio');
  return join(env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'simulacra-studio');
}
