FROM python:3.11-slim
WORKDIR /srv
COPY pyproject.toml README.md ./
COPY app app
COPY domain domain
COPY workers workers
# The rules pages the service serves (/rules/NAME and their pictures).
COPY docs/rules docs/rules
RUN pip install --no-cache-dir .
ENV HOST=0.0.0.0 PORT=8000
EXPOSE 8000
CMD ["python", "-m", "app"]
