// A cache as the engine uses one: whatever has get and set (the application
// hands it BoundedCaches, src/cache). A module of its own because the render
// context (context.ts) makes the caches that use it (text/glyph-cache.ts),
// which would otherwise import the context back.

/** A cache as the engine uses one. */
export interface EngineCache<K, V> {
  get(key: K): V | undefined;
  set(key: K, value: V): void;
}
