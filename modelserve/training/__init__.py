"""Training the suggestion backends (`suggester.py`: the `trained` backend; `cross_encoder.py`,
`chemu_pipeline.py`, and the pure learning-in-the-loop rules in `learning.py`).

Nothing is imported here: the learning rules are read by every Django process (the submit
hook), and importing a trainer would load torch into each web process and worker at start-up
(about 2.5 s and its memory). Import the module you need.
"""
