import { z } from 'zod';
import { configureZodMessages } from './zod-messages.ts';

// The contracts build their schemas from here, so wherever one is loaded (the server, a form in the
// browser) zod already words its messages in Portuguese, with no set-up call to forget.
configureZodMessages();

export { z };
