// Stand-in for ankerl::unordered_dense (https://github.com/martinus/unordered_dense),
// which Debian bookworm does not package. mediasoup only uses its map, set and
// hash names, which behave like the standard unordered containers for that use
// (the standard ones have stronger iterator-stability guarantees, not weaker).
#ifndef PARLEY_ANKERL_UNORDERED_DENSE_STANDIN_H
#define PARLEY_ANKERL_UNORDERED_DENSE_STANDIN_H

#include <functional>
#include <unordered_map>
#include <unordered_set>

namespace ankerl::unordered_dense
{
	// A class rather than an alias so that code may still specialize it.
	template<class Key>
	struct hash : std::hash<Key>
	{
	};

	template<class Key, class T, class Hash = hash<Key>, class KeyEqual = std::equal_to<Key>>
	using map = std::unordered_map<Key, T, Hash, KeyEqual>;

	template<class Key, class Hash = hash<Key>, class KeyEqual = std::equal_to<Key>>
	using set = std::unordered_set<Key, Hash, KeyEqual>;
} // namespace ankerl::unordered_dense

#endif
