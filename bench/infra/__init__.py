"""Each hand-written infrastructure piece measured against the library that could replace it
(docs/decisions.md, "Hand-written infrastructure"). The libraries are not dependencies of the
product: install them into a folder of their own and put it first on the path, e.g.

    pip install --target /tmp/infra-libs cachetools==6.2.2 django-redis==6.0.0
    PYTHONPATH=/tmp/infra-libs:. .venv/bin/python -m bench.infra.memo

Every script runs A and B interleaved, several rounds, and prints each round and the median
ratio, so a machine loaded by other work slows both alike. The figures and the decisions are
in docs/decisions.md ("Hand-written infrastructure, measured again").
"""
