# packages: qdrant-client>=1.15
# env: QDRANT_URL, LOAMS_API_KEY
# doc: guides/engines/qdrant.md
import os

from qdrant_client import QdrantClient, models

client = QdrantClient(url=os.environ["QDRANT_URL"], api_key=os.environ["LOAMS_API_KEY"])

hits = client.query_points(collection_name="docs", query=[0.1, 0.2, 0.3, 0.4], limit=5).points
for hit in hits:
    print(hit.id, hit.score, hit.payload)
