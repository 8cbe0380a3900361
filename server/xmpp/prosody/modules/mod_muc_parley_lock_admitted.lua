-- Locking a room does not lock out the people already in it. Prosody's password check refuses every
-- join without the password, owners included, and a reconnect is a join: someone who was in the room
-- when it was locked never learnt the password (the lock check tells a non-owner only that one is
-- required), so a network blip or a server restart would have left them outside for good.
--
-- So the room keeps who it has admitted under its current password: the people in it when the
-- password is set, and whoever joins while it is set (with the password, or admitted already).
-- A join from one of them gets the password put into its MUC <x/> before the password check, and
-- goes through every other check (bans, occupant limit) as any join. The MUC <x/> never reaches the
-- other occupants (Prosody filters its namespace out of the presences it sends on).
--
-- Kept by bare JID: the identity a reconnect, a reload and a restart keep (a guest's comes from the
-- identity credential the browser keeps, signed by the config service, so nobody else can claim it);
-- the nickname is not, as any client may ask for any nickname. Kept in room._data, stored with the
-- room in SQLite like its password (mod_muc_parley_room_persistence.lua), so it outlives restarts
-- and goes with the room.
--
-- A new password admits only the people in the room then (someone who left must ask for it); unlocking
-- forgets everyone; a ban, or a kick by a moderator, takes the person off for good.

local jid_bare = require "util.jid".bare;

local xmlns_muc = "http://jabber.org/protocol/muc";

local function password_of(room)
	return room._data.password;
end

local function admit_occupants(room)
	local admitted = {};
	for _, occupant in room:each_occupant() do
		admitted[occupant.bare_jid] = true;
	end
	room._data.parley_admitted = admitted;
end

-- Before mod_muc's own handler (priority 0) sets the password; the room is saved after every field.
module:hook("muc-config-submitted/muc#roomconfig_roomsecret", function(event)
	local room = event.room;
	local password = event.value;
	if password == "" then
		password = nil;
	end
	if password == password_of(room) then
		return;
	end
	if password then
		admit_occupants(room);
	else
		room._data.parley_admitted = nil;
	end
end, 10);

module:hook("muc-occupant-joined", function(event)
	local room = event.room;
	if not password_of(room) then
		return;
	end
	local admitted = room._data.parley_admitted or {};
	if not admitted[event.occupant.bare_jid] then
		admitted[event.occupant.bare_jid] = true;
		room._data.parley_admitted = admitted;
		room:save(true);
	end
end);

-- After the ban check (-10), before the password check (-20).
module:hook("muc-occupant-pre-join", function(event)
	local room, stanza = event.room, event.stanza;
	local password = password_of(room);
	local admitted = room._data.parley_admitted;
	if not password or not admitted or not admitted[jid_bare(stanza.attr.from)] then
		return;
	end
	local muc_x = stanza:get_child("x", xmlns_muc);
	if not muc_x then
		return; -- not a join the password check looks at
	end
	muc_x:remove_children("password", xmlns_muc);
	muc_x:tag("password", { xmlns = xmlns_muc }):text(password):up();
end, -15);

local function forget(room, bare_jid)
	local admitted = room._data.parley_admitted;
	if admitted and admitted[bare_jid] then
		admitted[bare_jid] = nil;
		room:save(true);
	end
end

module:hook("muc-set-affiliation", function(event)
	if event.affiliation == "outcast" then
		forget(event.room, jid_bare(event.jid));
	end
end);

-- A moderator's kick (role none, status 307 with an actor); a presence bounced by a vanished
-- session also says 307, but with no actor, and is a lost connection, not a kick.
module:hook("muc-broadcast-presence", function(event)
	local occupant = event.occupant;
	if occupant.role ~= nil or not event.actor then
		return;
	end
	for status in event.x:childtags("status") do
		if status.attr.code == "307" then
			forget(event.room, occupant.bare_jid);
			return;
		end
	end
end);
