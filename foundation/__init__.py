"""The platform layer under the apps: what every app may import, and which imports no app.

The error mapping (a refusal -> its HTTP status and JSON body), the API schema class,
``after_commit`` (every side effect after commit), the broadcaster, the permissions, and the
job lifecycle (``foundation.jobs``: claim, owned write, heartbeat, throttled progress, finish
and take-over, for every background job of every app).
"""
