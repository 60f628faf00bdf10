export { type LauncherConfig, LauncherConfigSchema, loadLauncherConfig } from './config';
export { REPO_ROOT } from './paths';
export { presentServices, SERVICE_REGISTRY, type ServiceDefinition } from './services';
