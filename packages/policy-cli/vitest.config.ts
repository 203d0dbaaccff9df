import { toolgateProject } from '../../vitest.shared.ts';

export default toolgateProject('policy-cli');
