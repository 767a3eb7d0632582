// Runs every path scenario (src/test/resources/scenarios/*.json) on aws-local-stepfunctions, an ASL engine
// written independently of ours, and prints one JSON array: per scenario the visited top-level states, the
// top-level Task invocations, the first request each top-level Task received, and the final status. The Java test compares them with each scenario's "expect".
//
// usage: node run-scenarios.mjs <asl file> <scenario dir>
import { readFileSync, readdirSync } from 'node:fs';
import { join, basename } from 'node:path';

// aws-local-stepfunctions 3 wants Node >= 22 for Promise.withResolvers; without it every Task fails with a
// TypeError that the machine's States.ALL catchers would silently turn into an alert path.
if (typeof Promise.withResolvers !== 'function') {
  Promise.withResolvers = function withResolvers() {
    let resolve;
    let reject;
    const promise = new Promise((res, rej) => {
      resolve = res;
      reject = rej;
    });
    return { promise, resolve, reject };
  };
}

const { StateMachine, ExecutionError } = await import('aws-local-stepfunctions');

// The engine validates Resource ARNs, so placeholders become syntactically real ARNs of a fake account.
const PLACEHOLDER_VALUES = {
  OrchestratorFunctionArn: 'arn:aws:lambda:us-east-1:123456789012:function:interlock-orchestrator',
  EvaluatorFunctionArn: 'arn:aws:lambda:us-east-1:123456789012:function:interlock-evaluator',
  TriggerFunctionArn: 'arn:aws:lambda:us-east-1:123456789012:function:interlock-trigger',
  RunCheckerFunctionArn: 'arn:aws:lambda:us-east-1:123456789012:function:interlock-run-checker',
  AlertTopicArn: 'arn:aws:sns:us-east-1:123456789012:interlock-alerts',
};
// A scenario whose script would loop forever is reported, not hung.
const MAX_INVOCATIONS = 500;
// Neither wall-clock nor the host's zone may leak into results: the context is fixed.
const CONTEXT_ENTERED_TIME = '2026-01-15T06:00:00.000Z';

function substitute(text) {
  return text.replace(/\$\{([A-Za-z0-9]+)\}/g, (match, name) => {
    if (!(name in PLACEHOLDER_VALUES)) {
      throw new Error(`unknown placeholder ${match} in the ASL file`);
    }
    return PLACEHOLDER_VALUES[name];
  });
}

function collectStates(states, visit) {
  for (const [name, state] of Object.entries(states)) {
    visit(name, state);
    const processor = state.ItemProcessor ?? state.Iterator;
    if (processor) collectStates(processor.States, visit);
  }
}

/** A scripted sequence: each call takes the next step; the last step repeats. */
function nextStep(sequence, counters, key) {
  const steps = Array.isArray(sequence) ? sequence : [sequence];
  const used = counters.get(key) ?? 0;
  counters.set(key, used + 1);
  return steps[Math.min(used, steps.length - 1)];
}

// What a Task sent its function: a lambda:invoke (callback) Task's Payload, with its task token masked as the Java
// runner masks its own (tokens differ on every run).
const TASK_TOKEN = '<task token>';
function functionRequest(input) {
  if (!input || typeof input !== 'object' || !('FunctionName' in input) || !('Payload' in input)) return structuredClone(input);
  const payload = structuredClone(input.Payload);
  if (payload?.payload && 'taskToken' in payload.payload) payload.payload.taskToken = TASK_TOKEN;
  return payload;
}

// aws-local-stepfunctions 3.0.0 has no callback pattern (.waitForTaskToken is run as a plain call, HeartbeatSeconds
// is not enforced): a callback Task's local handler answers with the scripted callback itself, as the Java runner's
// job does through SendTaskSuccess/SendTaskFailure; a scripted States.HeartbeatTimeout/States.Timeout is thrown as
// that error, which the Java engine produces by timing the wait out.
function perform(step, where) {
  if (step && typeof step === 'object' && 'throw' in step) {
    const error = new Error(step.throw.cause ?? '');
    error.name = step.throw.error;
    throw error;
  }
  if (step && typeof step === 'object' && 'return' in step) {
    return structuredClone(step.return);
  }
  throw new Error(`${where}: a scripted step is {"return": ...} or {"throw": {"error", "cause"}}`);
}

async function runScenario(definition, topLevel, mapInner, waitStates, retryStates, file) {
  const scenario = JSON.parse(readFileSync(file, 'utf8'));
  const name = basename(file, '.json');
  const invocations = [];
  const requests = {};
  const problems = [];
  const counters = new Map();
  const handlers = {};
  const machine = new StateMachine(definition, { validationOptions: { checkArn: true, checkPaths: true } });
  let aborter = () => {};

  for (const stateName of topLevel.tasks) {
    handlers[stateName] = (input) => {
      const request = functionRequest(input);
      invocations.push({ state: stateName, action: typeof request?.action === 'string' ? request.action : null });
      if (!(stateName in requests)) requests[stateName] = request;
      if (invocations.length > MAX_INVOCATIONS) {
        problems.push(`more than ${MAX_INVOCATIONS} invocations: the script never leaves a loop`);
        aborter();
      }
      const script = scenario.results?.[stateName];
      if (script === undefined) {
        problems.push(`${stateName} was invoked but the scenario scripts no result for it`);
        aborter();
        return {};
      }
      return perform(nextStep(script, counters, stateName), stateName);
    };
  }
  for (const stateName of mapInner.tasks) {
    handlers[stateName] = (input) => {
      const traitType = input?.traitType;
      const script = scenario.evaluator?.[traitType];
      if (script === undefined) {
        problems.push(`${stateName} evaluated trait ${traitType} but the scenario scripts no evaluator result for it`);
        aborter();
        return {};
      }
      return perform(nextStep(script, counters, `evaluator:${traitType}`), `${stateName}[${traitType}]`);
    };
  }

  const execution = machine.run(scenario.input, {
    noThrowOnAbort: true,
    context: {
      Execution: { Id: 'node-scenario-execution-id', Name: scenario.executionName ?? `scenario-${name}` },
      State: { EnteredTime: CONTEXT_ENTERED_TIME },
      Task: { Token: 'node-scenario-task-token' },
    },
    overrides: {
      taskResourceLocalHandlers: handlers,
      waitTimeOverrides: Object.fromEntries(waitStates.map((s) => [s, 0])),
      retryIntervalOverrides: Object.fromEntries(retryStates.map((s) => [s, 0])),
    },
  });
  aborter = execution.abort;

  const states = [];
  let status = 'RUNNING';
  let error = null;
  for await (const event of execution.eventLogs) {
    if (event.type === 'StateEntered' && topLevel.all.has(event.state.name) && event.index === undefined) {
      states.push(event.state.name);
    } else if (event.type === 'ExecutionSucceeded') {
      status = 'SUCCEEDED';
    } else if (event.type === 'ExecutionFailed') {
      status = 'FAILED';
      error = event.Error;
    } else if (event.type === 'ExecutionAborted') {
      status = 'ABORTED';
    }
  }
  try {
    await execution.result;
  } catch (e) {
    if (!(e instanceof ExecutionError)) problems.push(`engine error: ${e.message}`);
  }
  return { name, states, invocations, requests, status, error, problems };
}

const [aslFile, scenarioDir] = process.argv.slice(2);
if (!aslFile || !scenarioDir) {
  console.error('usage: node run-scenarios.mjs <asl file> <scenario dir>');
  process.exit(2);
}
const definition = JSON.parse(substitute(readFileSync(aslFile, 'utf8')));
// aws-local-stepfunctions 3.0.0 reads TimeoutSecondsPath from the input AFTER Parameters (AWS and the Java engine read
// the state's input) and knows no HeartbeatSecondsPath; callback tasks are answered at once by their scripted
// callback here, so their wait limits are dropped for this engine only. The Java scenarios prove them.
for (const state of Object.values(definition.States)) {
  if (state.Type === 'Task' && String(state.Resource).endsWith('.waitForTaskToken')) {
    delete state.TimeoutSecondsPath;
    delete state.HeartbeatSecondsPath;
  }
}
const topLevel = { all: new Set(Object.keys(definition.States)), tasks: [] };
for (const [n, s] of Object.entries(definition.States)) if (s.Type === 'Task') topLevel.tasks.push(n);
const mapInner = { tasks: [] };
const waitStates = [];
const retryStates = [];
for (const [, s] of Object.entries(definition.States)) {
  const processor = s.ItemProcessor ?? s.Iterator;
  if (processor) collectStates(processor.States, (n, inner) => { if (inner.Type === 'Task') mapInner.tasks.push(n); });
}
collectStates(definition.States, (n, s) => {
  if (s.Type === 'Wait') waitStates.push(n);
  if (s.Retry) retryStates.push(n);
});

const files = readdirSync(scenarioDir).filter((f) => f.endsWith('.json')).sort();
const results = [];
for (const f of files) {
  results.push(await runScenario(definition, topLevel, mapInner, waitStates, retryStates, join(scenarioDir, f)));
}
process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
