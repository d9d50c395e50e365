# packages: qdrant-client>=1.15
# env: QDRANT_URL, LOAMS_API_KEY
# doc: guides/engines/qdrant.md
import os

from qdrant_client import QdrantClient, models

# .env.loams (from `loams env export`) holds the stack's URLs and key; variables already set win.
if os.path.exists(".env.loams"):
    with open(".env.loams") as env:
        for name, _, value in (line.strip().partition("=") for line in env):
            if name and not name.startswith("#"):
                os.environ.setdefault(name, value.strip("'\""))

client = QdrantClient(url=os.environ["QDRANT_URL"], api_key=os.environ["LOAMS_API_KEY"])

client.upsert(
    collection_name="docs",
    points=[
        models.PointStruct(id=1, vector=[0.1, 0.2, 0.3, 0.4], payload={"body": "a refund takes 5 days"}),
        models.PointStruct(id=2, vector=[0.4, 0.3, 0.2, 0.1], payload={"body": "shipping is free over 50 EUR"}),
    ],
    wait=True,
)
