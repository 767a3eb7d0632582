r"""LocalStack's ASL interpreter as shipped in moto, served by moto's server: the third engine of the path scenarios
(MotoScenarioRunner.java starts it; statemachine/src/test/resources/scenarios/README.md says what it proves).

    MOTO_PORT=<port of the scripted Lambda/SNS endpoint> python3 moto_asl_engine.py

Binds 127.0.0.1 on an ephemeral port, prints "moto listening on <port>" once it accepts connections, and stops when its
standard input closes, so it never outlives the JVM that started it. Task states call Lambda and SNS through boto3 at
http://localhost:$MOTO_PORT (moto's own routing of the interpreter's clients), which is where the harness answers them.

Before serving, the harness corrects what moto does differently from AWS on this project's ASL, in this process only
and without touching the ASL (the scenarios README lists each with the AWS behaviour):
  1. $$.Execution.StartTime is a datetime object; AWS hands an ISO-8601 string with milliseconds and a Z.
  2. $$.State.EnteredTime is Python's isoformat (microseconds, +00:00); AWS writes milliseconds and a Z.
  3. An intrinsic function's string literal keeps JSON's escaped backslashes: the ASL text "'\\{'" reaches the function
     as \\{ (moto decodes only \", \n, \t and \r), and States.Format formats its template with Python's str.format,
     so \{ is neither a literal brace nor valid. On AWS the literal is the JSON string's value, and in States.Format only
     {} is a placeholder while a backslash makes the next character literal.
  4. Wait states and retry intervals sleep in real time; here they return at once (only the path is compared).
It also remembers parsed JSONPath expressions: moto builds a new jsonpath-ng parser (its LALR tables included) for
every path it evaluates, which was most of its run time on this ASL. That changes speed only.
"""
import datetime
import functools
import json
import logging
import sys


def aws_timestamp(value) -> str:
    """An ISO-8601 UTC timestamp with milliseconds and a Z, as AWS writes context times."""
    if isinstance(value, str):
        value = datetime.datetime.fromisoformat(value.replace("Z", "+00:00"))
    value = value.astimezone(datetime.timezone.utc)
    return value.strftime("%Y-%m-%dT%H:%M:%S.") + f"{value.microsecond // 1000:03d}Z"


def aws_format(template: str, values: list) -> str:
    """States.Format as AWS defines it: each {} takes the next value; a backslash makes the next character literal."""
    out = []
    args = iter(values)
    i = 0
    while i < len(template):
        c = template[i]
        if c == "\\" and i + 1 < len(template):
            out.append(template[i + 1])
            i += 2
        elif c == "{" and template.startswith("{}", i):
            try:
                out.append(next(args))
            except StopIteration:
                raise ValueError("States.Format has more {} placeholders than arguments") from None
            i += 2
        else:
            out.append(c)
            i += 1
    if next(args, None) is not None:
        raise ValueError("States.Format has more arguments than {} placeholders")
    return "".join(out)


def correct_moto() -> None:
    from moto.stepfunctions.parser.asl.component.common.retry import retrier_decl
    from moto.stepfunctions.parser.asl.component.intrinsic.function.statesfunction.generic import string_format
    from moto.stepfunctions.parser.asl.component.state import state
    from moto.stepfunctions.parser.asl.component.state.wait.wait_function import wait_function
    from moto.stepfunctions.parser.asl.parse.intrinsic import preprocessor
    from moto.stepfunctions.parser.asl.utils import json_path
    from moto.stepfunctions.parser.backend import execution_worker

    json_path.parse = functools.lru_cache(maxsize=None)(json_path.parse)

    build_environment = execution_worker.ExecutionWorker._get_evaluation_environment

    def environment_with_aws_start_time(self):
        env = build_environment(self)
        execution = env.states.context_object.context_object_data["Execution"]
        execution["StartTime"] = aws_timestamp(execution["StartTime"])
        return env

    execution_worker.ExecutionWorker._get_evaluation_environment = environment_with_aws_start_time

    state_data = state.StateData

    def state_data_with_aws_entered_time(**fields):
        fields["EnteredTime"] = aws_timestamp(fields["EnteredTime"])
        return state_data(**fields)

    state.StateData = state_data_with_aws_entered_time

    def json_string_value(parse_tree):
        text = (preprocessor.is_production(parse_tree) or preprocessor.is_terminal(parse_tree)).getText()[1:-1]
        return json.loads('"' + text + '"')

    preprocessor.Preprocessor._text_of_str = staticmethod(json_string_value)

    def format_like_aws(self, env):
        self.argument_list.eval(env=env)
        args = env.stack.pop()
        env.stack.append(aws_format(args[0], [self._to_str_repr(v) for v in args[1:]]))

    string_format.StringFormat._eval_body = format_like_aws

    def no_wait(self, env, wait_seconds):
        return None

    wait_function.WaitFunction._wait_interval = no_wait

    class NoRetryInterval:
        @staticmethod
        def sleep(seconds):
            return None

    # Only the retrier's module sees this: Task timeouts and the server keep real time.
    retrier_decl.time = NoRetryInterval


def main() -> None:
    from moto.server import ThreadedMotoServer

    correct_moto()
    # One line per request would flood the test output; server errors still show. The interpreter logs every Fail
    # state as an error, a normal end here: the history the harness reads tells what happened.
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    logging.getLogger("moto.stepfunctions.parser.asl").setLevel(logging.CRITICAL)
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    print(f"moto listening on {server.get_host_and_port()[1]}", flush=True)
    sys.stdin.read()
    server.stop()


if __name__ == "__main__":
    main()
