import { toolgateProject } from '../../vitest.shared.ts';

export default toolgateProject('oracle-grove', 60_000);
