# One image for the API and the worker (docker-compose.yml picks the command).
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY backend/package.json backend/
COPY frontend/package.json frontend/
COPY packages/engine/package.json packages/engine/
COPY packages/contracts/package.json packages/contracts/
COPY benches/package.json benches/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:22-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app /app
EXPOSE 3000
CMD ["node", "--experimental-async-context-frame", "--max-semi-space-size=64", "backend/dist/main.js"]
