"""The job on Apache Spark (`toolkit run ... --engine spark`, `pip install "toolkit[spark]"`).

    executor     SparkExecutor: the job's tasks in Spark's Python workers; the session; the key as a broadcast
    documents    a DataFrame of raw documents as a job's input, parsed where it lies; the release read back

Nothing here imports PySpark until it is used: `import toolkit` works without it.
"""

from toolkit.spark.documents import Documents, read_release
from toolkit.spark.executor import DEFAULT_MASTER, SparkExecutor, spark_session

__all__ = ("DEFAULT_MASTER", "Documents", "SparkExecutor", "read_release", "spark_session")
