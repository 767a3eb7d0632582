"""The local Step Functions and Lambda endpoints as real AWS clients meet them, next to moto's answers to the same calls
(LocalEndpointsConformanceTest.java runs this and judges the report; README.md next to this file says what it proves
and where moto is not AWS).

    python3 endpoint_conformance.py <report.json>      (the targets are read from standard input as JSON:)
    {"sfn": "http://127.0.0.1:8083", "lambda": "http://127.0.0.1:3001", "stateMachineArn": "...",
     "runningInputs": [{...}, ...], "endedInput": {...}, "functions": ["orchestrator", ...],
     "invocations": {"api": {...}, ...}}

Every call is made on both targets with boto3 (parameter validation off, so the services judge the parameters) and a
few with the AWS CLI. moto runs in this process (its server on 127.0.0.1 and an ephemeral port) with a state machine
that waits an hour and functions named like the local ones, so both targets hold comparable resources. A success is
reported by its shape (keys and value types, not values), an error by its code and HTTP status (its message is kept
to check that it names no class of ours). Observations that only the local endpoints can be judged on (value-level:
pages, logs, invocations of every function) go under "local".
"""
import base64
import datetime
import io
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
import zipfile

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError
from botocore.response import StreamingBody

REGION = "us-east-1"
WAIT_AN_HOUR = {"StartAt": "Hour", "States": {"Hour": {"Type": "Wait", "Seconds": 3600, "End": True}}}


def shape(value):
    """The structure of an answer: keys and value types, list elements merged; values themselves do not matter."""
    if isinstance(value, dict):
        return {k: shape(v) for k, v in sorted(value.items()) if k != "ResponseMetadata"}
    if isinstance(value, list):
        merged = {}
        for element in value:
            s = shape(element)
            if isinstance(s, dict) and isinstance(merged, dict):
                merged.update(s)
            else:
                merged = s
        return [merged] if value else []
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, datetime.datetime):
        return "timestamp"
    if isinstance(value, (bytes, StreamingBody)):
        return "blob"
    if value is None:
        return "null"
    return "string"


def call(f):
    """A call's answer: {"ok": <answer>} or {"error", "status", "message"}."""
    try:
        answer = f()
        if isinstance(answer.get("Payload"), StreamingBody):
            answer["Payload"] = answer["Payload"].read()
        return {"ok": answer}
    except ClientError as e:
        error = e.response.get("Error", {})
        return {"error": error.get("Code"), "status": e.response.get("ResponseMetadata", {}).get("HTTPStatusCode"),
                "message": error.get("Message", "")}


def comparable(local, moto):
    """History events of the two targets come from different machines (ours runs the pipeline ASL, moto a canned
    history): their envelopes are compared whole, their details only for the event types both have."""
    if "shape" in local and "shape" in moto and local["shape"].get("events") and moto["shape"].get("events"):
        mine, theirs = local["shape"]["events"][0], moto["shape"]["events"][0]
        both = {k for k in mine if k.endswith("EventDetails")} & {k for k in theirs if k.endswith("EventDetails")}
        for event in (mine, theirs):
            for k in [k for k in event if k.endswith("EventDetails") and k not in both]:
                del event[k]
    return local, moto


def reported(answer):
    """What the comparison holds of an answer: its shape, or its error code and HTTP status (messages differ freely)."""
    if "ok" in answer:
        return {"shape": shape(answer["ok"])}
    return {k: v for k, v in answer.items() if k != "message"}


# Where moto 5.2.1 is not AWS, by call: what AWS answers instead (the local endpoint must answer that) and why the
# deviation is moto's. README.md next to this script lists the same calls for readers; this is the one the test reads.
LIST_ITEM = {"creationDate": "timestamp", "name": "string", "stateMachineArn": "string", "type": "string"}
STARTED_EVENT = {"executionStartedEventDetails": {"input": "string", "inputDetails": {"truncated": "boolean"},
                                                  "roleArn": "string"},
                 "id": "number", "previousEventId": "number", "timestamp": "timestamp", "type": "string"}
ABORTED = {"cause": "string", "error": "string", "executionArn": "string", "input": "string", "name": "string",
           "startDate": "timestamp", "stateMachineArn": "string", "status": "string", "stopDate": "timestamp"}
FUNCTION = {"Architectures": ["string"], "CodeSha256": "string", "CodeSize": "number", "Description": "string",
            "EphemeralStorage": {"Size": "number"}, "FunctionArn": "string", "FunctionName": "string",
            "Handler": "string", "LastModified": "string", "LastUpdateStatus": "string", "Layers": [],
            "MemorySize": "number", "PackageType": "string", "Role": "string", "Runtime": "string",
            "SnapStart": {"ApplyOn": "string", "OptimizationStatus": "string"}, "State": "string", "Timeout": "number",
            "TracingConfig": {"Mode": "string"}, "Version": "string"}
MOTO_DEVIATIONS = {
    "ListStateMachines": ({"shape": {"stateMachines": [LIST_ITEM]}},
                          "moto's list items have no 'type'; AWS's StateMachineListItem always has one"),
    "aws stepfunctions list-state-machines": ({"shape": {"stateMachines": [dict(LIST_ITEM, creationDate="number")]}},
                                              "moto's list items have no 'type'; AWS's StateMachineListItem always has one"),
    "GetExecutionHistory one per page": ({"shape": {"events": [STARTED_EVENT], "nextToken": "string"}},
                                         "moto ignores maxResults and answers the whole history in one page"),
    "DescribeExecution stopped": ({"shape": ABORTED},
                                  "moto forgets the error and cause StopExecution was given; AWS reports them"),
    "ListFunctions one per page": ({"shape": {"Functions": [FUNCTION], "NextMarker": "string"}},
                                   "moto ignores MaxItems and answers every function in one page"),
    "StartExecution without a state machine": ({"error": "ValidationException", "status": 400},
                                               "moto fails with HTTP 500 when a required member is missing"),
    "ListExecutions unknown status": ({"error": "ValidationException", "status": 400},
                                      "moto does not validate statusFilter against the enum"),
    "ListExecutions too many per page": ({"error": "ValidationException", "status": 400},
                                         "moto does not check maxResults against AWS's limit of 1000"),
    "Invoke with LogType Tail": ({"shape": {"ExecutedVersion": "string", "LogResult": "string", "Payload": "blob",
                                            "StatusCode": "number"}},
                                 "moto without Docker runs no code: no log and no ExecutedVersion"),
    "Invoke": ({"shape": {"ExecutedVersion": "string", "Payload": "blob", "StatusCode": "number"}},
               "moto without Docker runs no code: no ExecutedVersion"),
}

# Where the local runtime differs from AWS on purpose, by call: what it answers, and why (README.md, second table).
# Job fakes stand in for the pipelines' own jobs: every state machine and function other than Interlock's exists.
FAKE_JOB = {"--fake-duration-seconds": 0}
JOB_FAKES = "job fakes stand in for the pipelines' own state machines and functions: every one of them exists locally"
LOCAL_BY_DESIGN = {
    "StartExecution unknown state machine": ({"shape": {"executionArn": "string", "startDate": "timestamp"}}, JOB_FAKES),
    "ListExecutions unknown state machine": ({"shape": {"executions": [
        {"executionArn": "string", "name": "string", "startDate": "timestamp", "stateMachineArn": "string",
         "status": "string", "stopDate": "timestamp"}]}}, JOB_FAKES),
    "Invoke unknown": ({"shape": {"ExecutedVersion": "string", "Payload": "blob", "StatusCode": "number"}}, JOB_FAKES),
}


class Target:
    """One endpoint pair with its clients and the names of its resources."""

    def __init__(self, name, sfn_url, lambda_url, state_machine_arn, running_inputs, ended_input, functions):
        config = Config(parameter_validation=False, retries={"max_attempts": 0, "mode": "standard"})
        kw = dict(region_name=REGION, aws_access_key_id="conformance", aws_secret_access_key="conformance", config=config)
        self.name = name
        self.sfn_url = sfn_url
        self.lambda_url = lambda_url
        self.sfn = boto3.client("stepfunctions", endpoint_url=sfn_url, **kw)
        self.lam = boto3.client("lambda", endpoint_url=lambda_url, **kw)
        self.machine = state_machine_arn
        self.running_inputs = [json.dumps(i) for i in running_inputs]
        self.ended_input = json.dumps(ended_input)
        self.functions = functions
        self.run = uuid.uuid4().hex[:8]

    @property
    def running_input(self):
        """An input whose execution keeps waiting: each its own pipeline, since one pipeline-day runs once at a time."""
        return self.running_inputs.pop(0)

    def execution_arn(self, name):
        return self.machine.replace(":stateMachine:", ":execution:") + ":" + name

    def exec_name(self, label):
        return f"conformance-{self.run}-{label}"


def await_status(target, arn, wanted, limit=60):
    deadline = time.time() + limit
    while time.time() < deadline:
        status = target.sfn.describe_execution(executionArn=arn)["status"]
        if status in wanted:
            return status
        time.sleep(0.05)
    raise RuntimeError(f"{arn} on {target.name} never reached {wanted}")


def step_functions_calls(t):
    """The Step Functions calls, in order, each as (id, answer)."""
    out = []
    missing_machine = t.machine + "-missing"
    running = t.exec_name("running")
    out.append(("ListStateMachines", call(lambda: t.sfn.list_state_machines())))
    out.append(("DescribeStateMachine", call(lambda: t.sfn.describe_state_machine(stateMachineArn=t.machine))))
    out.append(("DescribeStateMachine unknown", call(lambda: t.sfn.describe_state_machine(stateMachineArn=missing_machine))))
    out.append(("DescribeStateMachine not an ARN", call(lambda: t.sfn.describe_state_machine(stateMachineArn="not-an-arn"))))
    running_input = t.running_input
    out.append(("StartExecution", call(lambda: t.sfn.start_execution(stateMachineArn=t.machine, name=running, input=running_input))))
    out.append(("StartExecution same name and input", call(
        lambda: t.sfn.start_execution(stateMachineArn=t.machine, name=running, input=running_input))))
    out.append(("StartExecution same name, other input", call(
        lambda: t.sfn.start_execution(stateMachineArn=t.machine, name=running, input=t.ended_input))))
    out.append(("StartExecution invalid name", call(
        lambda: t.sfn.start_execution(stateMachineArn=t.machine, name="not a valid name!", input="{}"))))
    out.append(("StartExecution invalid input", call(
        lambda: t.sfn.start_execution(stateMachineArn=t.machine, name=t.exec_name("bad-input"), input="{not json"))))
    out.append(("StartExecution unknown state machine", call(lambda: t.sfn.start_execution(
        stateMachineArn=missing_machine, name=t.exec_name("nowhere"), input=json.dumps(FAKE_JOB)))))
    arn = t.execution_arn(running)
    out.append(("DescribeExecution running", call(lambda: t.sfn.describe_execution(executionArn=arn))))
    out.append(("DescribeExecution unknown", call(lambda: t.sfn.describe_execution(executionArn=arn + "-missing"))))
    out.append(("DescribeExecution not an ARN", call(lambda: t.sfn.describe_execution(executionArn="not-an-arn"))))
    for label in ("second", "third"):
        t.sfn.start_execution(stateMachineArn=t.machine, name=t.exec_name(label), input=t.running_input)
    out.append(("ListExecutions", call(lambda: t.sfn.list_executions(stateMachineArn=t.machine))))
    out.append(("ListExecutions one per page", call(lambda: t.sfn.list_executions(stateMachineArn=t.machine, maxResults=1))))
    out.append(("ListExecutions RUNNING", call(lambda: t.sfn.list_executions(stateMachineArn=t.machine, statusFilter="RUNNING"))))
    out.append(("ListExecutions unknown status", call(
        lambda: t.sfn.list_executions(stateMachineArn=t.machine, statusFilter="NOT_A_STATUS"))))
    out.append(("ListExecutions invalid token", call(
        lambda: t.sfn.list_executions(stateMachineArn=t.machine, nextToken="not-a-token"))))
    out.append(("ListExecutions too many per page", call(
        lambda: t.sfn.list_executions(stateMachineArn=t.machine, maxResults=1001))))
    out.append(("ListExecutions unknown state machine", call(lambda: t.sfn.list_executions(stateMachineArn=missing_machine))))
    out.append(("GetExecutionHistory", call(lambda: t.sfn.get_execution_history(executionArn=arn))))
    out.append(("GetExecutionHistory one per page", call(lambda: t.sfn.get_execution_history(executionArn=arn, maxResults=1))))
    out.append(("GetExecutionHistory unknown", call(lambda: t.sfn.get_execution_history(executionArn=arn + "-missing"))))
    out.append(("StopExecution", call(lambda: t.sfn.stop_execution(executionArn=arn, error="Conformance.Stop", cause="stopped by the test"))))
    out.append(("DescribeExecution stopped", call(lambda: t.sfn.describe_execution(executionArn=arn))))
    out.append(("StopExecution unknown", call(lambda: t.sfn.stop_execution(executionArn=arn + "-missing"))))
    out.append(("StartExecution without a state machine", call(lambda: t.sfn.start_execution(name=t.exec_name("orphan"), input="{}"))))
    return out


def lambda_calls(t):
    out = []
    first = t.functions[0]
    out.append(("ListFunctions", call(lambda: t.lam.list_functions())))
    out.append(("ListFunctions one per page", call(lambda: t.lam.list_functions(MaxItems=1))))
    out.append(("GetFunction", call(lambda: t.lam.get_function(FunctionName=first))))
    out.append(("GetFunction unknown", call(lambda: t.lam.get_function(FunctionName="no-such-function"))))
    out.append(("Invoke", call(lambda: t.lam.invoke(FunctionName=first, Payload=b'{"action":"conformance"}'))))
    out.append(("Invoke with LogType Tail", call(
        lambda: t.lam.invoke(FunctionName=first, Payload=b'{"action":"conformance"}', LogType="Tail"))))
    out.append(("Invoke unknown", call(
        lambda: t.lam.invoke(FunctionName="no-such-function", Payload=json.dumps(FAKE_JOB).encode()))))
    return out


def cli(target_url, *args):
    """One AWS CLI call: {"ok": parsed output} or {"error": code, "message"}; credentials from the environment only."""
    with tempfile.TemporaryDirectory() as home:
        env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
        env.update(AWS_ACCESS_KEY_ID="conformance", AWS_SECRET_ACCESS_KEY="conformance", AWS_DEFAULT_REGION=REGION,
                   AWS_CONFIG_FILE=os.path.join(home, "config"), AWS_SHARED_CREDENTIALS_FILE=os.path.join(home, "credentials"),
                   AWS_MAX_ATTEMPTS="1", HOME=home)
        p = subprocess.run(["aws", "--endpoint-url", target_url, "--output", "json", *args],
                           capture_output=True, text=True, env=env, timeout=120)
    if p.returncode == 0:
        return {"ok": json.loads(p.stdout) if p.stdout.strip() else {}}
    text = p.stderr.strip()
    code = text.split("(", 1)[1].split(")", 1)[0] if "An error occurred (" in text else "CLI exit " + str(p.returncode)
    return {"error": code, "message": text}


def cli_calls(t):
    running = t.exec_name("cli")
    arn = t.execution_arn(running)
    out = [
        ("aws stepfunctions list-state-machines", cli(t.sfn_url, "stepfunctions", "list-state-machines")),
        ("aws stepfunctions describe-state-machine", cli(t.sfn_url, "stepfunctions", "describe-state-machine",
                                                          "--state-machine-arn", t.machine)),
        ("aws stepfunctions start-execution", cli(t.sfn_url, "stepfunctions", "start-execution", "--state-machine-arn",
                                                   t.machine, "--name", running, "--input", t.running_input)),
        ("aws stepfunctions describe-execution", cli(t.sfn_url, "stepfunctions", "describe-execution", "--execution-arn", arn)),
        ("aws stepfunctions list-executions --max-items 1", cli(t.sfn_url, "stepfunctions", "list-executions",
                                                                 "--state-machine-arn", t.machine, "--max-items", "1")),
        ("aws stepfunctions get-execution-history", cli(t.sfn_url, "stepfunctions", "get-execution-history",
                                                         "--execution-arn", arn)),
        ("aws stepfunctions stop-execution", cli(t.sfn_url, "stepfunctions", "stop-execution", "--execution-arn", arn)),
        ("aws stepfunctions describe-execution unknown", cli(t.sfn_url, "stepfunctions", "describe-execution",
                                                              "--execution-arn", arn + "-missing")),
        ("aws lambda list-functions", cli(t.lambda_url, "lambda", "list-functions")),
        ("aws lambda get-function", cli(t.lambda_url, "lambda", "get-function", "--function-name", t.functions[0])),
        ("aws lambda get-function unknown", cli(t.lambda_url, "lambda", "get-function", "--function-name", "no-such-function")),
    ]
    with tempfile.TemporaryDirectory() as d:
        outfile = os.path.join(d, "out.json")
        invoked = cli(t.lambda_url, "lambda", "invoke", "--function-name", t.functions[0], "--log-type", "Tail",
                      "--cli-binary-format", "raw-in-base64-out", "--payload", '{"action":"conformance"}', outfile)
    out.append(("aws lambda invoke --log-type Tail", invoked))
    return out


def local_observations(t, invocations):
    """Value-level facts about the local endpoints, judged by the Java test against AWS's documented behaviour. A
    section that fails is reported under "failures" and the others still run, so one report shows every gap."""
    seen = {"failures": []}

    def pages_while_executions_start():
        # A page continues after the last execution handed out: one started in between neither repeats nor shifts one.
        names = [t.exec_name(f"page-{i}") for i in range(3)]
        for n in names:
            t.sfn.start_execution(stateMachineArn=t.machine, name=n, input=t.running_input)
        pages = []
        page = t.sfn.list_executions(stateMachineArn=t.machine, statusFilter="RUNNING", maxResults=2)
        pages.append([e["name"] for e in page["executions"]])
        started_between = t.exec_name("between-pages")
        t.sfn.start_execution(stateMachineArn=t.machine, name=started_between, input=t.running_input)
        while page.get("nextToken"):
            page = t.sfn.list_executions(stateMachineArn=t.machine, statusFilter="RUNNING", maxResults=2,
                                         nextToken=page["nextToken"])
            pages.append([e["name"] for e in page["executions"]])
        seen["listExecutionsPages"] = pages
        seen["pagedNames"] = names
        seen["startedBetweenPages"] = started_between
        seen["tokenOfOtherFilter"] = call(lambda: t.sfn.list_executions(
            stateMachineArn=t.machine, statusFilter="SUCCEEDED", nextToken=t.sfn.list_executions(
                stateMachineArn=t.machine, statusFilter="RUNNING", maxResults=1)["nextToken"]))

    def history_of_an_ended_execution():
        ended = t.exec_name("ended")
        ended_arn = t.execution_arn(ended)
        t.sfn.start_execution(stateMachineArn=t.machine, name=ended, input=t.ended_input)
        seen["endedStatus"] = await_status(t, ended_arn, {"SUCCEEDED", "FAILED", "TIMED_OUT", "ABORTED"})
        history = []
        token = None
        while True:
            kw = {"executionArn": ended_arn, "maxResults": 3, "reverseOrder": True}
            if token:
                kw["nextToken"] = token
            page = t.sfn.get_execution_history(**kw)
            history.append([e["id"] for e in page["events"]])
            token = page.get("nextToken")
            if not token or len(history) > 100:
                break
        seen["historyPagesNewestFirst"] = history
        without = t.sfn.get_execution_history(executionArn=ended_arn, includeExecutionData=False)["events"]
        seen["historyWithoutDataKeys"] = sorted({k for e in without for d in e.values() if isinstance(d, dict) for k in d})
        with_data = t.sfn.get_execution_history(executionArn=ended_arn)["events"]
        seen["historyWithDataKeys"] = sorted({k for e in with_data for d in e.values() if isinstance(d, dict) for k in d})

    def definition():
        seen["definition"] = t.sfn.describe_state_machine(stateMachineArn=t.machine).get("definition")

    def function_pages():
        listed = []
        marker = None
        while True:
            kw = {"MaxItems": 2}
            if marker:
                kw["Marker"] = marker
            page = t.lam.list_functions(**kw)
            listed.append([f["FunctionName"] for f in page["Functions"]])
            marker = page.get("NextMarker")
            if not marker or len(listed) > 100:
                break
        seen["listFunctionsPages"] = listed

    for section in (pages_while_executions_start, history_of_an_ended_execution, definition, function_pages):
        try:
            section()
        except (ClientError, KeyError, RuntimeError) as e:
            seen["failures"].append(f"{section.__name__}: {e!r}")

    invoked = {}
    for name, payload in invocations.items():
        answer = call(lambda: t.lam.invoke(FunctionName=name, Payload=json.dumps(payload).encode(), LogType="Tail"))
        if "ok" in answer:
            r = answer["ok"]
            log = base64.b64decode(r["LogResult"]).decode("utf-8", "replace") if "LogResult" in r else None
            invoked[name] = {"functionError": r.get("FunctionError"), "executedVersion": r.get("ExecutedVersion"),
                             "payload": r["Payload"].decode("utf-8", "replace"), "log": log,
                             "logBytes": len(base64.b64decode(r["LogResult"])) if "LogResult" in r else None}
        else:
            invoked[name] = answer
    seen["invocations"] = invoked
    return seen


def start_moto():
    from moto.server import ThreadedMotoServer
    import logging
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    url = f"http://127.0.0.1:{server.get_host_and_port()[1]}"
    request = urllib.request.Request(url + "/moto-api/config", data=json.dumps({"lambda": {"use_docker": False}}).encode(),
                                     headers={"Content-Type": "application/json"}, method="POST")
    urllib.request.urlopen(request).read()
    return server, url


def moto_target(url, functions, running_inputs, ended_input):
    kw = dict(endpoint_url=url, region_name=REGION, aws_access_key_id="conformance", aws_secret_access_key="conformance")
    role = boto3.client("iam", **kw).create_role(RoleName="conformance", AssumeRolePolicyDocument="{}")["Role"]["Arn"]
    machine = boto3.client("stepfunctions", **kw).create_state_machine(
        name="interlock-pipeline", definition=json.dumps(WAIT_AN_HOUR), roleArn=role)["stateMachineArn"]
    code = io.BytesIO()
    with zipfile.ZipFile(code, "w") as z:
        z.writestr("Handler.class", b"")
    lam = boto3.client("lambda", **kw)
    for name in functions:
        lam.create_function(FunctionName=name, Runtime="java21", Role=role, Handler=name + "::handleRequest",
                            Code={"ZipFile": code.getvalue()}, MemorySize=1024, Timeout=60)
    return Target("moto", url, url, machine, running_inputs, ended_input, functions)


def main():
    spec = json.load(sys.stdin)
    report_file = sys.argv[1]
    local = Target("local", spec["sfn"], spec["lambda"], spec["stateMachineArn"], spec["runningInputs"], spec["endedInput"],
                   spec["functions"])
    server, url = start_moto()
    try:
        moto = moto_target(url, spec["functions"], spec["runningInputs"], spec["endedInput"])
        calls = []
        for kind, steps in (("boto3", step_functions_calls), ("boto3", lambda_calls), ("aws-cli", cli_calls)):
            mine = steps(local)
            theirs = dict(steps(moto))
            for call_id, answer in mine:
                mine_reported, theirs_reported = comparable(reported(answer), reported(theirs[call_id]))
                entry = {"call": call_id, "client": kind, "local": mine_reported, "moto": theirs_reported,
                         "localMessage": answer.get("message")}
                if call_id in MOTO_DEVIATIONS:
                    entry["aws"], entry["deviation"] = MOTO_DEVIATIONS[call_id]
                if call_id in LOCAL_BY_DESIGN:
                    entry["localByDesign"], entry["reason"] = LOCAL_BY_DESIGN[call_id]
                calls.append(entry)
        report = {"calls": calls, "local": local_observations(local, spec["invocations"])}
    finally:
        server.stop()
    with open(report_file, "w") as f:
        json.dump(report, f, indent=1, default=str)


if __name__ == "__main__":
    main()
