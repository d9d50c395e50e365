# packages: qdrant-client>=1.15
# env: QDRANT_URL, LOAMS_API_KEY
# doc: guides/engines/qdrant.md
import os

from qdrant_client import QdrantClient, models

client = QdrantClient(url=os.environ["QDRANT_URL"], api_key=os.environ["LOAMS_API_KEY"])

client.create_collection(
    collection_name="docs",
    vectors_config=models.VectorParams(size=4, distance=models.Distance.COSINE),
)
