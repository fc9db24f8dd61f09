// Module selections for tests that leave a module out of the shipped development list.
import { readModuleSelection } from '../../src/core/modules.ts';
import { loadConfig, projectPath } from '../../src/core/config.ts';

export function shippedModulesWithout(...left: string[]): string[] {
  return readModuleSelection(loadConfig({ HUB_MODULES_FILE: projectPath('modules.json') })).filter((m) => !left.includes(m));
}
