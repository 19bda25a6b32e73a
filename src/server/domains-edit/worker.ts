// The server's edits of single names are planned here, in a process of its own (forked by planner.ts for a large file): reading and
// checking a 100,000-name YAML file takes more heap than the server has (decision 026). From the sources, as the
// CLI runs (decision 008).
import { answerTask } from '../import/fork-task.ts'
import { planDomainEdits } from './plan.ts'

answerTask(planDomainEdits)
