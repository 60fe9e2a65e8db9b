"""Answer formats: what an answer of each format looks like, how the extractive reader finds
it in prose, and how the scorer compares it.

Extraction and scoring normalise one value the same way, so they live together, below the
corpus (whose validator checks that each unit's answer has its declared format), the
readers and the scorer, which all import them from here. ``formats`` declares the formats and
the descriptor a task states; ``numbers`` and ``roles`` recognise spelled numbers and role
phrases; ``extract`` reads a value; ``normalize`` compares two; ``schema`` is the answer;
``prose`` reads an answer an agent wrote as a sentence, with the same extractor.
"""
