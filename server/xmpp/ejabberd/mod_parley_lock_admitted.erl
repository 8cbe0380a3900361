%% Locking a room does not lock out the people already in it: the ejabberd side of
%% ../prosody/modules/mod_muc_parley_lock_admitted.lua, whose comments are the rule.
%%
%% ejabberd's password check (mod_muc_room:add_new_user, check_password) refuses every join
%% without the password, room owners included, and a reconnect is a join: someone who was in the
%% room when it was locked never learnt the password, so a lost connection or a server restart
%% would leave them outside for good. So the room keeps who it has admitted under its current
%% password (the people in it when the password is set, and whoever joins while it is set), and a
%% join from one of them gets the password put into its MUC <x/> before the check: in the room's
%% muc_filter_presence hook, which mod_muc_room:process_presence runs, in the room's process and
%% with the room's state, before add_new_user (bans, occupant limit, password). mod_parley's own
%% muc_filter_presence (the occupant limit, priority 50) runs after this one (40), so an admitted
%% person's join into a full room is told the room is full, as on Prosody. The MUC <x/> never
%% reaches the other occupants: mod_muc_room:filter_presence strips the MUC namespaces from the
%% presence it passes on.
%%
%% Kept by bare JID (the identity a reconnect, a reload and a restart keep; a nickname is not), in
%% the Mnesia table parley_lock_admitted with the password it belongs to, on disk before the room
%% answers (mod_muc_parley:on_disk, as the room's own changes), and removed with the room.
%%
%% Where each change is seen, all in the room's process:
%% - the password set, changed or removed: mod_muc_room stores the room (mod_muc_parley:store_room,
%%   which calls room_stored/3) after every config change, with the new password in its options;
%%   the people in the room then are the ones its join_room / leave_room hooks have told of;
%% - a join while the password is set: the join_room hook, which add_new_user runs only once the
%%   join has passed every check;
%% - a ban: mod_muc_room stores the room after every affiliation change (process_admin_items_set,
%%   and the admin commands' process_item_change), its options listing the outcasts;
%% - a kick (role none): the unavailable self-presence with status 307 the room sends the kicked
%%   person (filter_packet). mod_muc_room sends 307 only for a role set to none by a moderator or an
%%   admin (process_item_change); a vanished session, or the room shutting down (332), never says 307.
%%   A ban sends the banned person status 301, taken as a kick's 307.
%% Every room is stored (ejabberdConfig.ts: access_persistent none, so no owner makes one temporary),
%% so every change is seen.
%% A new password admits only the people in the room then; unlocking forgets everyone; a ban or a
%% kick takes the person off for good.
-module(mod_parley_lock_admitted).
-behaviour(gen_mod).

-export([start/2, stop/1, reload/3, depends/2, mod_options/1, mod_doc/0]).
-export([create_table/0, muc_filter_presence/3, join_room/4, leave_room/4, filter_packet/1,
         room_stored/3, forget_room/1]).

-include("xmpp.hrl").
-include("logger.hrl").
-include("mod_muc_room.hrl").

%% Who a room (name, MUC host) admits without the password: bare JIDs ({LUser, LServer, <<>>}),
%% under the password they were admitted with (the room's current one).
-record(parley_lock_admitted, {room :: {binary(), binary()}, password :: binary(), admitted = [] :: [ljid()]}).

%% The occupants' full JIDs, in the room's process dictionary (join_room / leave_room).
-define(OCCUPANTS, {?MODULE, occupants}).

%% mod_muc_parley:init creates it too: rooms may be stored before this module has started.
create_table() ->
    ejabberd_mnesia:create(?MODULE, parley_lock_admitted,
                           [{disc_copies, [node()]}, {attributes, record_info(fields, parley_lock_admitted)}]).

start(Host, _Opts) ->
    create_table(),
    ejabberd_hooks:add(muc_filter_presence, Host, ?MODULE, muc_filter_presence, 40),
    ejabberd_hooks:add(join_room, Host, ?MODULE, join_room, 50),
    ejabberd_hooks:add(leave_room, Host, ?MODULE, leave_room, 50),
    ejabberd_hooks:add(filter_packet, ?MODULE, filter_packet, 50),
    ok.

stop(Host) ->
    ejabberd_hooks:delete(muc_filter_presence, Host, ?MODULE, muc_filter_presence, 40),
    ejabberd_hooks:delete(join_room, Host, ?MODULE, join_room, 50),
    ejabberd_hooks:delete(leave_room, Host, ?MODULE, leave_room, 50),
    ejabberd_hooks:delete(filter_packet, ?MODULE, filter_packet, 50),
    ok.

reload(Host, NewOpts, _OldOpts) ->
    stop(Host),
    start(Host, NewOpts).

%% mod_parley: its MUC hosts (filter_packet), and the occupant limit after this module's hook.
depends(_Host, _Opts) -> [{mod_muc, hard}, {mod_parley, hard}].

mod_options(_Host) -> [].

mod_doc() -> #{desc => <<"Parley: locking a room keeps its people (server/xmpp/ejabberd/mod_parley_lock_admitted.erl)">>}.

%%% Joins

%% A join (a presence with the MUC <x/> from someone not in the room) from an admitted person gets
%% the room's password; every other check (bans, the occupant limit) still applies.
muc_filter_presence(#presence{from = From, type = available} = Presence,
                    #state{users = Users, config = Config, room = Name, host = MucHost}, _Nick) ->
    case maps:is_key(jid:tolower(From), Users) of
        true ->
            Presence;
        false ->
            case {xmpp:get_subtag(Presence, #muc{}), password_of(Config)} of
                {#muc{} = Muc, Password} when is_binary(Password) ->
                    case lists:member(bare(From), admitted({Name, MucHost}, Password)) of
                        true -> xmpp:set_subtag(Presence, Muc#muc{password = Password});
                        false -> Presence
                    end;
                {_, undefined} ->
                    %% Unlocked: nothing should be kept (see admitted/2).
                    admitted({Name, MucHost}, undefined),
                    Presence;
                _ ->
                    Presence
            end
    end;
muc_filter_presence(Acc, _Room, _Nick) ->
    Acc.

%% The room's password, when it is locked.
password_of(#config{password_protected = true, password = Password}) -> Password;
password_of(#config{}) -> undefined.

%% Who the room admits under Password. The list is written whenever the room is stored, so it
%% agrees with the room's password; should it not (a room locked before this module ran), nobody.
admitted(Room, Password) ->
    case {mnesia:dirty_read(parley_lock_admitted, Room), Password} of
        {[#parley_lock_admitted{password = Password, admitted = Admitted}], _} ->
            Admitted;
        {[], undefined} ->
            [];
        {[_], undefined} ->
            forget_room(Room),
            [];
        {_, _} ->
            []
    end.

%% Both run in the room's process, for one occupant: join_room only once the join has passed
%% every check (mod_muc_room:add_online_user).
join_room(_ServerHost, Name, MucHost, JID) ->
    put(?OCCUPANTS, lists:usort([jid:tolower(JID) | occupants()])),
    case mnesia:dirty_read(parley_lock_admitted, {Name, MucHost}) of
        [#parley_lock_admitted{admitted = Admitted} = Record] ->
            Bare = bare(JID),
            case lists:member(Bare, Admitted) of
                true -> ok;
                false -> write(Record#parley_lock_admitted{admitted = [Bare | Admitted]})
            end;
        [] ->
            ok
    end.

leave_room(_ServerHost, _Name, _MucHost, JID) ->
    put(?OCCUPANTS, lists:delete(jid:tolower(JID), occupants())),
    ok.

%% The occupants kept in the room's process dictionary, none until it is kept.
occupants() ->
    case get(?OCCUPANTS) of
        undefined -> [];
        Occupants -> Occupants
    end.

%%% The password set, changed or removed

%% mod_muc_parley:store_room, in the room's process, before the room's options are written and
%% synced (so this is on disk with them, before the room answers the change): the password set,
%% changed or removed, or someone banned.
room_stored(MucHost, Name, Opts) ->
    Room = {Name, MucHost},
    Password = case {proplists:get_value(password_protected, Opts), proplists:get_value(password, Opts)} of
                   {true, Secret} when is_binary(Secret) -> Secret;
                   _ -> undefined
               end,
    Outcasts = [bare(LJID) || {LJID, Affiliation} <- proplists:get_value(affiliations, Opts, []),
                              is_outcast(Affiliation)],
    case {mnesia:dirty_read(parley_lock_admitted, Room), Password} of
        {[], undefined} ->
            ok;
        {[_], undefined} ->
            %% Unlocked: forgets everyone.
            forget_room(Room);
        {[#parley_lock_admitted{password = Password, admitted = Admitted} = Record], _} ->
            case Admitted -- Outcasts of
                Admitted -> ok;
                Kept -> write(Record#parley_lock_admitted{admitted = Kept})
            end;
        {_, _} ->
            %% Locked, or a new password: the people in the room now, and nobody else.
            write(#parley_lock_admitted{room = Room, password = Password,
                                        admitted = lists:usort([bare(LJID) || LJID <- occupants()])})
    end.

is_outcast(outcast) -> true;
is_outcast({outcast, _Reason}) -> true;
is_outcast(_) -> false.

%%% Kicks and bans, as the room's own messages on their way out

%% The kicked or banned person's own unavailable presence (110 with 307 or 301) on its way from the room.
filter_packet(#presence{type = unavailable, from = #jid{luser = Name, lserver = MucHost}, to = #jid{} = To} = Presence)
  when Name /= <<>> ->
    case room_statuses(Presence, MucHost) of
        Codes when is_list(Codes) ->
            case lists:member(110, Codes) andalso (lists:member(307, Codes) orelse lists:member(301, Codes)) of
                true -> forget({Name, MucHost}, bare(To));
                false -> ok
            end;
        _ ->
            ok
    end,
    Presence;
filter_packet(Packet) ->
    Packet.

%% The MUC status codes of a stanza from one of our rooms, or false.
room_statuses(Stanza, MucHost) ->
    case mod_parley:muc_host(MucHost) /= undefined andalso xmpp:get_subtag(Stanza, #muc_user{}) of
        #muc_user{status_codes = Codes} -> Codes;
        _ -> false
    end.

forget(Room, Bare) ->
    case mnesia:dirty_read(parley_lock_admitted, Room) of
        [#parley_lock_admitted{admitted = Admitted} = Record] ->
            case lists:member(Bare, Admitted) of
                true -> write(Record#parley_lock_admitted{admitted = lists:delete(Bare, Admitted)});
                false -> ok
            end;
        [] ->
            ok
    end.

%% mod_muc_parley:forget_room (the room destroyed or expired), and an unlock.
forget_room(Room) ->
    mnesia:dirty_delete(parley_lock_admitted, Room),
    mod_muc_parley:on_disk().

write(Record) ->
    mnesia:dirty_write(Record),
    mod_muc_parley:on_disk().

bare(#jid{} = JID) -> jid:remove_resource(jid:tolower(JID));
bare({_, _, _} = LJID) -> jid:remove_resource(LJID).
