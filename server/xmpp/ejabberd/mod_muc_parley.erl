%% mod_muc's storage for Parley (mod_muc `db_type: parley`, ejabberdConfig.ts): mod_muc_mnesia's
%% tables and code, with each stored or forgotten room on disk before the call returns.
%%
%% Why: mod_muc_mnesia commits a room (its config, owner, lock and bans) in a Mnesia transaction,
%% whose log record Mnesia hands to its disk_log (LATEST.LOG) without waiting, and disk_log keeps
%% what it is given in memory for up to two seconds before it writes it. A room created or locked,
%% or a ban, that the client had been told of could be lost to a SIGKILL in those two seconds.
%% The room process stores a room before it answers (the creator's self-presence, the config
%% form's result, the ban's result), and the log record went to the log process from that same
%% process, so a sync asked for here, after it, covers it: the change is on disk before the
%% client hears of it. In a cluster the transaction has also reached every other node's copy.
%%
%% The room's lock-admitted list (mod_parley_lock_admitted.erl) goes with it: brought up to date
%% whenever the room is stored (its password or its bans may have changed), forgotten with the room.
%%
%% Only the persistent part (mod_muc's db_mod) is here; the online rooms (ram_db_type) stay
%% mod_muc_mnesia's. No -behaviour(mod_muc): that behaviour also lists the online-room callbacks.
-module(mod_muc_parley).

-export([init/2, import/3, store_room/5, restore_room/3, forget_room/3, can_use_nick/4, get_rooms/2,
         get_nick/3, set_nick/4, set_affiliation/6, set_affiliations/4, get_affiliation/5, get_affiliations/3,
         search_affiliation/4, on_disk/0]).

-include("logger.hrl").
-include("mod_muc.hrl").

%% mod_muc_mnesia creates these only when it is mod_muc's db_mod; the same tables, so a data
%% folder written by either serves both.
init(_Host, _Opts) ->
    ejabberd_mnesia:create(mod_muc_mnesia, muc_room,
                           [{disc_copies, [node()]}, {attributes, record_info(fields, muc_room)}]),
    ejabberd_mnesia:create(mod_muc_mnesia, muc_registered,
                           [{disc_copies, [node()]}, {attributes, record_info(fields, muc_registered)}, {index, [nick]}]),
    mod_parley_lock_admitted:create_table(),
    ok.

store_room(LServer, Host, Name, Opts, ChangesHints) ->
    mod_parley_lock_admitted:room_stored(Host, Name, Opts),
    Result = mod_muc_mnesia:store_room(LServer, Host, Name, Opts, ChangesHints),
    on_disk(),
    Result.

forget_room(LServer, Host, Name) ->
    mod_parley_lock_admitted:forget_room({Name, Host}),
    Result = mod_muc_mnesia:forget_room(LServer, Host, Name),
    on_disk(),
    Result.

%% Returns once what this process has written to disc tables is written to the disk and synced:
%% its log records went to the log process before this request, which takes requests in order.
on_disk() ->
    case disk_log:sync(latest_log) of
        ok -> ok;
        %% Mnesia is between two logs (a dump): closing the old one wrote it.
        {error, no_such_log} -> ok;
        {error, Reason} -> ?ERROR_MSG("Could not sync Mnesia's log: ~p", [Reason])
    end.

import(LServer, Table, Row) -> mod_muc_mnesia:import(LServer, Table, Row).
restore_room(LServer, Host, Name) -> mod_muc_mnesia:restore_room(LServer, Host, Name).
can_use_nick(LServer, Host, JID, Nick) -> mod_muc_mnesia:can_use_nick(LServer, Host, JID, Nick).
get_rooms(LServer, Host) -> mod_muc_mnesia:get_rooms(LServer, Host).
get_nick(LServer, Host, From) -> mod_muc_mnesia:get_nick(LServer, Host, From).
set_nick(LServer, Host, From, Nick) -> mod_muc_mnesia:set_nick(LServer, Host, From, Nick).
%% Affiliations live in the room's options (stored above), as with mod_muc_mnesia.
set_affiliation(ServerHost, Room, Host, JID, Affiliation, Reason) ->
    mod_muc_mnesia:set_affiliation(ServerHost, Room, Host, JID, Affiliation, Reason).
set_affiliations(ServerHost, Room, Host, Affiliations) -> mod_muc_mnesia:set_affiliations(ServerHost, Room, Host, Affiliations).
get_affiliation(ServerHost, Room, Host, LUser, LServer) -> mod_muc_mnesia:get_affiliation(ServerHost, Room, Host, LUser, LServer).
get_affiliations(ServerHost, Room, Host) -> mod_muc_mnesia:get_affiliations(ServerHost, Room, Host).
search_affiliation(ServerHost, Room, Host, Affiliation) -> mod_muc_mnesia:search_affiliation(ServerHost, Room, Host, Affiliation).
