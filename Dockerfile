# The Teen Patti table server in a container: one process on SQLite in the /data volume.
#
#   docker build -t teenpatti .            (or: podman build -t teenpatti .)
#   docker run -p 8000:8000 -v teenpatti-data:/data teenpatti
#
# The project is installed the way CI installs it (a virtualenv, then `pip install` of this
# folder from pyproject.toml), without the development extras. See docs/deploy.md.
ARG PYTHON_IMAGE=python:3.11-slim-bookworm

FROM ${PYTHON_IMAGE} AS build
WORKDIR /src
COPY pyproject.toml README.md ./
COPY teenpatti ./teenpatti
RUN python3 -m venv /opt/teenpatti \
 && /opt/teenpatti/bin/python -m pip install --no-cache-dir --disable-pip-version-check .

FROM ${PYTHON_IMAGE}
RUN useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin teenpatti \
 && mkdir -p /data && chown teenpatti:teenpatti /data
COPY --from=build /opt/teenpatti /opt/teenpatti
ENV PATH=/opt/teenpatti/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1
USER teenpatti
WORKDIR /data
VOLUME ["/data"]
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["python3", "-c", "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2).status != 200)"]
ENTRYPOINT ["teenpatti", "serve"]
CMD ["--host", "0.0.0.0", "--port", "8000", "--data", "/data"]
