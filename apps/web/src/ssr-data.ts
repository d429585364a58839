/** The id of the `<script type="application/json">` holding a server-rendered page's query data. */
export const SERVER_DATA_ID = 'server-data';
