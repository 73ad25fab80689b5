"""Test helper: the structured request the model-client tests send to either fake server (Ollama in
test_models_client.py, OpenAI-compatible in test_models_openai.py) and a good reply to it."""

from __future__ import annotations

import json

from pydantic import BaseModel

MODEL = "qwen3.5:9b"
MESSAGES = [
    {"role": "system", "content": "Extract facts."},
    {"role": "user", "content": "<document>김민수 팀장은 3월 5일 회의를 연기했다.</document>"},
]


class Facts(BaseModel):
    facts: list[str]
    who: str


GOOD = json.dumps({"facts": ["회의가 연기되었다"], "who": "김민수"}, ensure_ascii=False)
