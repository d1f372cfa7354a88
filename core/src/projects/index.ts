export { projectUseCases, toProject } from './projects.js';
