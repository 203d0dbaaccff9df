import { toolgateProject } from '../../vitest.shared.ts';

export default toolgateProject('example-quick-start');
